import type { CatalogMessages as M } from "@billing/contracts";
import { or } from "./presenting";
import type { appliedInvoiceCustomSectionObject, invoiceCustomSectionObject, ViewOf } from "./schemas";

/** Lago's InvoiceCustomSectionObject (also the customer's `applicable_invoice_custom_sections[]` items). */
export function presentInvoiceCustomSection(s: M.InvoiceCustomSection__Output) {
  return {
    svc_id: s.svc_id,
    name: s.name,
    code: s.code,
    description: or(s.description),
    details: or(s.details),
    display_name: or(s.display_name),
    applied_to_organization: s.applied_to_organization ?? false,
    organization_id: s.organization_id,
    created_at: s.created_at,
  } satisfies ViewOf<typeof invoiceCustomSectionObject>;
}

/** Lago's AppliedInvoiceCustomSectionObject list: the sections a resource (subscription, wallet, rule, transaction) chose. */
export function presentAppliedSections(list: M.AppliedInvoiceCustomSection__Output[] | undefined) {
  return (list ?? []).map((a) => ({
    svc_id: a.svc_id,
    invoice_custom_section_id: a.invoice_custom_section_id,
    created_at: a.created_at,
    invoice_custom_section: presentInvoiceCustomSection(a.invoice_custom_section!),
  })) satisfies Array<ViewOf<typeof appliedInvoiceCustomSectionObject>>;
}
