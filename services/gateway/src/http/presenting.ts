/** Shared pieces of the JSON Lago sends: proto messages omit absent optional fields, Lago sends null. */
export type Message = Record<string, any>;

export const or = (value: unknown) => (value === undefined ? null : value);

/** Lago's TaxObject: the rate is a number in responses. */
export function presentTax(t: Message) {
  return {
    svc_id: t.svc_id, name: t.name, code: t.code, description: or(t.description), rate: Number(t.rate),
    applied_to_organization: t.applied_to_organization, created_at: t.created_at,
  };
}

/** Lago's PaginationMeta. */
export function presentMeta(m: Message) {
  return {
    current_page: m.current_page, next_page: or(m.next_page), prev_page: or(m.prev_page),
    total_pages: m.total_pages, total_count: m.total_count,
  };
}

/**
 * Splits sent values from explicit nulls, as the protos carry them
 * (absent = not sent, `null_fields` = sent as null). `skip` keys are left out.
 */
export function presence(values: Record<string, unknown>, skip: string[] = []) {
  const fields: Record<string, unknown> = {};
  const null_fields: string[] = [];
  for (const [key, value] of Object.entries(values)) {
    if (skip.includes(key) || value === undefined) continue;
    if (value === null) null_fields.push(key);
    else fields[key] = value;
  }
  return { ...fields, null_fields };
}
