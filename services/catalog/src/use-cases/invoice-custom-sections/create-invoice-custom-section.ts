import { randomUUID } from "node:crypto";
import {
  INVOICE_CUSTOM_SECTION_PATCHABLE, invoiceCustomSectionViolations, type InvoiceCustomSection,
} from "../../domain/invoice-custom-section";
import { applyPatch, type Patch } from "../../domain/patch";
import type { CatalogDeps } from "../deps";
import { insertRecord, refuseIfInvalid } from "../catalog-record-writes";

/** Validates a section or throws 422 with every problem at once. */
export function checkedSection(section: InvoiceCustomSection): InvoiceCustomSection {
  refuseIfInvalid(invoiceCustomSectionViolations(section));
  return section;
}

/** POST /invoice_custom_sections. */
export async function createInvoiceCustomSection(
  deps: CatalogDeps,
  organizationId: string,
  patch: Patch<InvoiceCustomSection>,
): Promise<InvoiceCustomSection> {
  const now = deps.clock.now();
  const blank: InvoiceCustomSection = {
    id: randomUUID(), organization_id: organizationId, code: "", name: "", description: null, details: null, display_name: null,
    applied_to_organization: false, created_at: now, updated_at: now, deleted_at: null,
  };
  const section = checkedSection(applyPatch(blank, patch, INVOICE_CUSTOM_SECTION_PATCHABLE));
  await insertRecord(deps.invoiceCustomSections, section);
  return section;
}
