import type { CommonMessages } from "@billing/contracts";
import type { paginationMeta, taxObject, ViewOf } from "./schemas";

/** Shared pieces of the JSON Lago sends: proto messages omit absent optional fields, Lago sends null. */

export const or = <T>(value: T | undefined): T | null => (value === undefined ? null : value);

/** A charge filter's values as Lago shows them (key → values), from the proto map of value lists. */
export const filterValues = (values: Record<string, { values: string[] }>): Record<string, string[]> =>
  Object.fromEntries(Object.entries(values).map(([key, v]) => [key, v.values]));

/** Lago's TaxObject: the rate is a number in responses. */
export function presentTax(t: CommonMessages.Tax__Output) {
  return {
    svc_id: t.svc_id,
    name: t.name,
    code: t.code,
    description: or(t.description),
    rate: Number(t.rate),
    applied_to_organization: t.applied_to_organization,
    created_at: t.created_at,
  } satisfies ViewOf<typeof taxObject>;
}

/** Lago's PaginationMeta. */
export function presentMeta(meta: CommonMessages.PageMeta__Output | null) {
  // no meta: an empty collection's first page; current_page is 1 or more, never 0 (proto3's absent number)
  const m = meta ?? { current_page: 1, next_page: undefined, prev_page: undefined, total_pages: 0, total_count: 0 };
  return {
    current_page: m.current_page || 1,
    next_page: or(m.next_page),
    prev_page: or(m.prev_page),
    total_pages: m.total_pages,
    total_count: m.total_count,
  } satisfies ViewOf<typeof paginationMeta>;
}
