import { byName, type InvoiceCustomSection } from "../../domain/invoice-custom-section";
import type { CatalogDeps } from "../deps";

/** The live sections applied to the organization, by name (what a customer gets unless it chose or skips). */
export async function listAppliedInvoiceCustomSections(
  deps: CatalogDeps,
  organizationId: string,
): Promise<InvoiceCustomSection[]> {
  return (await deps.invoiceCustomSections.listApplied(organizationId)).sort(byName);
}
