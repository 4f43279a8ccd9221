import { INVOICE_CUSTOM_SECTION_PATCHABLE, type InvoiceCustomSection } from "../../domain/invoice-custom-section";
import { applyPatch, type Patch } from "../../domain/patch";
import type { CatalogDeps } from "../deps";
import { changeRecord } from "../catalog-record-writes";
import { checkedSection } from "./create-invoice-custom-section";

/** PUT /invoice_custom_sections/{code}: only the fields sent change (the code too). */
export async function updateInvoiceCustomSection(
  deps: CatalogDeps,
  organizationId: string,
  code: string,
  patch: Patch<InvoiceCustomSection>,
): Promise<InvoiceCustomSection> {
  const key = { organizationId, code, resource: "invoice_custom_section" };
  const { next } = await changeRecord(deps.invoiceCustomSections, deps.clock, key, (current) =>
    checkedSection(applyPatch(current, patch, INVOICE_CUSTOM_SECTION_PATCHABLE)),
  );
  return next;
}
