import type { InvoiceCustomSection } from "../../domain/invoice-custom-section";
import type { Patch } from "../../domain/patch";
import type { CatalogDeps } from "../deps";
import { changeRecord } from "../catalog-record-writes";
import { changedSection } from "./invoice-custom-section-change";

/** PUT /invoice_custom_sections/{code}: only the fields sent change (the code too). */
export async function updateInvoiceCustomSection(
  deps: CatalogDeps,
  organizationId: string,
  code: string,
  patch: Patch<InvoiceCustomSection>,
): Promise<InvoiceCustomSection> {
  const key = { organizationId, code, resource: "invoice_custom_section" };
  const { next } = await changeRecord(deps.invoiceCustomSections, deps.clock, key, (current) =>
    changedSection(current, patch),
  );
  return next;
}
