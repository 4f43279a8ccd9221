import type { CustomSection } from "./invoice";

/** A resource whose invoices may show sections of its own (a subscription): its skip flag and the live sections it chose. */
export interface SectionResource {
  skip: boolean;
  sections: readonly CustomSection[];
}

/** Where an invoice's sections come from besides its customer. */
export interface SectionSource {
  /** the resources it bills (a subscription invoice's subscriptions) */
  resources?: readonly SectionResource[];
  /** sections chosen for this invoice alone (a one-off invoice's codes, resolved); empty: none chosen */
  chosen?: readonly CustomSection[];
}

/**
 * The custom sections an invoice shows (Lago's ApplyInvoiceCustomSectionsService), given the
 * customer's (its own choice, or its billing entity's; none when it skips them):
 * - sections chosen for the invoice itself: those;
 * - resources that do not skip, some with sections of their own: theirs (each once), and the
 *   customer's too when one of them has none;
 * - resources that all skip sections: none;
 * - otherwise the customer's.
 * Pure: the caller resolves the chosen ids to live sections first (a deleted section counts as not chosen).
 */
export function invoiceSections(customer: readonly CustomSection[], source: SectionSource = {}): CustomSection[] {
  if (source.chosen?.length) return [...source.chosen];
  const resources = source.resources ?? [];
  const participating = resources.filter((r) => !r.skip);
  const withOwn = participating.filter((r) => r.sections.length > 0);
  if (withOwn.length > 0) {
    const own = uniqueByCode(withOwn.flatMap((r) => r.sections));
    return withOwn.length < participating.length ? uniqueByCode([...own, ...customer]) : own;
  }
  if (resources.length > 0 && participating.length === 0) return [];
  return [...customer];
}

function uniqueByCode(sections: readonly CustomSection[]): CustomSection[] {
  const seen = new Set<string>();
  return sections.filter((s) => !seen.has(s.code) && seen.add(s.code));
}
