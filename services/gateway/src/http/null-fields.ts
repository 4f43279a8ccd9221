/** The values sent (nulls and `skip` keys left out), as the proto input carries them. */
export type SentFields<T> = { [K in keyof T]?: Exclude<T[K], null> } & { null_fields: string[] };

/**
 * Splits sent values from explicit nulls, as the protos carry them
 * (absent = not sent, `null_fields` = sent as null). `skip` keys are left out.
 */
export function withNullFields<T extends object>(values: T, skip: string[] = []): SentFields<T> {
  const fields: Record<string, unknown> = {};
  const null_fields: string[] = [];
  for (const [key, value] of Object.entries(values as Record<string, unknown>)) {
    if (skip.includes(key) || value === undefined) continue;
    if (value === null) null_fields.push(key);
    else fields[key] = value;
  }
  return { ...fields, null_fields } as SentFields<T>;
}
