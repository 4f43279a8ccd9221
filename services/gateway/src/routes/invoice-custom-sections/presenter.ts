import { or, type Message } from "../../http/presenting";

/** Lago's InvoiceCustomSectionObject (also the customer's `applicable_invoice_custom_sections[]` items). */
export function presentInvoiceCustomSection(s: Message) {
  return {
    svc_id: s.svc_id, name: s.name, code: s.code, description: or(s.description), details: or(s.details),
    display_name: or(s.display_name), applied_to_organization: s.applied_to_organization ?? false,
    organization_id: s.organization_id, created_at: s.created_at,
  };
}
