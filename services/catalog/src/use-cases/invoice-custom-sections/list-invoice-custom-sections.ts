import type { PageRequest } from "@billing/mongo";
import type { CatalogDeps } from "../deps";

/** GET /invoice_custom_sections: newest first, id as tiebreaker. */
export function listInvoiceCustomSections(deps: CatalogDeps, organizationId: string, page: PageRequest) {
  return deps.invoiceCustomSections.listLive(organizationId, page);
}
