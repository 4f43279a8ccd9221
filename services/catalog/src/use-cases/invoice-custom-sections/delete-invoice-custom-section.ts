import type { InvoiceCustomSection } from "../../domain/invoice-custom-section";
import type { CatalogDeps } from "../deps";
import { deleteRecord } from "../catalog-record-writes";

/**
 * DELETE /invoice_custom_sections/{code}: the section disappears, from the organization and from the
 * customers who chose it (they resolve live sections only); its code is free again.
 */
export async function deleteInvoiceCustomSection(
  deps: CatalogDeps,
  organizationId: string,
  code: string,
): Promise<InvoiceCustomSection> {
  const key = { organizationId, code, resource: "invoice_custom_section" };
  return (await deleteRecord(deps.invoiceCustomSections, deps.clock, key)).next;
}
