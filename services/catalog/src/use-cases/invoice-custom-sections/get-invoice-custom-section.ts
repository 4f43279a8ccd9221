import { AppError } from "@billing/errors";
import type { InvoiceCustomSection } from "../../domain/invoice-custom-section";
import type { CatalogDeps } from "../deps";

/** GET /invoice_custom_sections/{code}. */
export async function getInvoiceCustomSection(
  deps: CatalogDeps,
  organizationId: string,
  code: string,
): Promise<InvoiceCustomSection> {
  const section = await deps.invoiceCustomSections.findLive(organizationId, code);
  if (!section) throw AppError.notFound("invoice_custom_section");
  return section;
}
