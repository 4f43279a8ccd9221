import type { PageRequest } from "@billing/mongo";
import type { InvoiceFilter } from "../../persistence/invoice-repository";
import type { InvoiceDeps } from "./deps";

/** GET /invoices: the organization's visible invoices, newest first, filtered as Lago's list is. */
export function listInvoices(
  deps: Pick<InvoiceDeps, "invoices">,
  organizationId: string,
  filter: InvoiceFilter,
  page: PageRequest,
) {
  return deps.invoices.list(organizationId, filter, page);
}
