import type { ErrorDetails } from "@billing/errors";
import type { InvoiceCustomSectionRef } from "./catalog-refs";
import type { CustomerPatch } from "./customer-patch";
import type { Customer } from "./types";

/** Lago refuses to skip sections and choose some in the same request. */
export function sectionChoiceViolations(patch: CustomerPatch): ErrorDetails | null {
  return patch.skip_invoice_custom_sections === true && patch.invoice_custom_section_codes !== undefined
    ? { invoice_custom_sections: ["skip_sections_and_selected_ids_sent_together"] }
    : null;
}

/**
 * The customer after its section choice (Lago's rule): skipping clears the selection; sending
 * codes selects the organization's live sections of those codes (unknown codes are ignored,
 * [] clears) and stops skipping. A skip flag sent as null changes nothing.
 */
export function applySectionChoice(
  c: Customer,
  patch: CustomerPatch,
  chosen: InvoiceCustomSectionRef[] | undefined,
): Customer {
  const next = { ...c };
  const skip = patch.skip_invoice_custom_sections;
  if (skip === true || skip === false) next.skip_invoice_custom_sections = skip;
  if (skip === true) next.invoice_custom_section_ids = [];
  if (patch.invoice_custom_section_codes !== undefined) {
    next.skip_invoice_custom_sections = false;
    next.invoice_custom_section_ids = (chosen ?? []).map((s) => s.svc_id);
  }
  return next;
}

const byName = (a: InvoiceCustomSectionRef, b: InvoiceCustomSectionRef) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : a.svc_id < b.svc_id ? -1 : a.svc_id > b.svc_id ? 1 : 0;

/**
 * The sections printed on the customer's invoices (Lago's applicable_invoice_custom_sections): none
 * when it skips them; else its own live selection; else, when it chose none (or all it chose were
 * deleted), the sections applied to the organization, which hold for its default billing entity.
 * Ordered by name.
 */
export function applicableSections(
  c: Customer,
  live: ReadonlyMap<string, InvoiceCustomSectionRef>,
  organizationSections: { sections: InvoiceCustomSectionRef[]; defaultBillingEntityId: string | null },
): InvoiceCustomSectionRef[] {
  if (c.skip_invoice_custom_sections) return [];
  const selected = c.invoice_custom_section_ids.flatMap((id) => live.get(id) ?? []);
  if (selected.length) return selected.sort(byName);
  if (c.billing_entity_id !== organizationSections.defaultBillingEntityId) return [];
  return [...organizationSections.sections].sort(byName);
}

/** Whether reading this customer needs the organization's sections (it skips none and may fall back). */
export const mayUseOrganizationSections = (c: Customer, defaultBillingEntityId: string | null) =>
  !c.skip_invoice_custom_sections && c.billing_entity_id === defaultBillingEntityId;
