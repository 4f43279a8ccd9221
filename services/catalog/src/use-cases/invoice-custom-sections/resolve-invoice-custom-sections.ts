import { byName, type InvoiceCustomSection } from "../../domain/invoice-custom-section";
import type { CatalogDeps } from "../deps";
import { liveRecordsNamed } from "../catalog-record-refs";

/** The organization's live sections named by these codes or ids (each once, by name); unknown ones are left out. */
export async function resolveInvoiceCustomSections(
  deps: CatalogDeps,
  organizationId: string,
  keys: { codes: string[]; ids: string[] },
): Promise<InvoiceCustomSection[]> {
  return (await liveRecordsNamed(deps.invoiceCustomSections, organizationId, keys, "section")).sort(byName);
}
