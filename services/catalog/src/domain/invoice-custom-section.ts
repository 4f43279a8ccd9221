import { Violations } from "./patch";
import type { CatalogRecord } from "./types";

/** A text printed on invoices (bank details, legal mentions); applied to the organization or chosen per customer. */
export interface InvoiceCustomSection extends CatalogRecord {
  name: string;
  description: string | null;
  /** The text shown on the invoice. */
  details: string | null;
  /** The heading shown on the invoice. */
  display_name: string | null;
  /** Shown on every invoice of the organization's customers who chose none and don't skip sections. */
  applied_to_organization: boolean;
}

export const INVOICE_CUSTOM_SECTION_PATCHABLE = [
  "name",
  "code",
  "description",
  "details",
  "display_name",
  "applied_to_organization",
] as const;

/** The invariants of every stored section (Lago: name and code present). Returns Lago's error_details, or null. */
export function invoiceCustomSectionViolations(section: InvoiceCustomSection): Record<string, string[]> | null {
  const v = new Violations();
  v.mandatory("name", section.name);
  v.mandatory("code", section.code);
  return v.result();
}

/** The public view (the customer's `applicable_invoice_custom_sections[]` items). */
export function invoiceCustomSectionView(s: InvoiceCustomSection) {
  return {
    svc_id: s.id,
    name: s.name,
    code: s.code,
    description: s.description,
    details: s.details,
    display_name: s.display_name,
    applied_to_organization: s.applied_to_organization,
    organization_id: s.organization_id,
    created_at: s.created_at.toISOString(),
    updated_at: s.updated_at.toISOString(),
  };
}

/** Sections in the order invoices show them: by name, id as tiebreaker. */
export const byName = (a: InvoiceCustomSection, b: InvoiceCustomSection) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
