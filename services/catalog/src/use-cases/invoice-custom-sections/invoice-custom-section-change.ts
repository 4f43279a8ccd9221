import {
  INVOICE_CUSTOM_SECTION_PATCHABLE,
  invoiceCustomSectionViolations,
  type InvoiceCustomSection,
} from "../../domain/invoice-custom-section";
import { applyPatch, type Patch } from "../../domain/patch";
import { refuseIfInvalid } from "../catalog-record-writes";

/** A section with the fields sent applied, validated, or 422 with every problem at once. Nothing is stored. */
export function changedSection(base: InvoiceCustomSection, patch: Patch<InvoiceCustomSection>): InvoiceCustomSection {
  const section = applyPatch(base, patch, INVOICE_CUSTOM_SECTION_PATCHABLE);
  refuseIfInvalid(invoiceCustomSectionViolations(section));
  // a null sent for the flag means Lago's default, false (the record and its events hold a boolean)
  return { ...section, applied_to_organization: section.applied_to_organization === true };
}
