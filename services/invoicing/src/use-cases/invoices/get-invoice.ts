import { AppError } from "@billing/errors";
import type { Invoice } from "../../domain/invoice";
import type { InvoiceDeps } from "./deps";

/** GET /invoices/{id}: one of the organization's visible invoices. */
export async function getInvoice(
  deps: Pick<InvoiceDeps, "invoices">,
  organizationId: string,
  id: string,
): Promise<Invoice> {
  const invoice = await deps.invoices.find(organizationId, id);
  if (!invoice) throw AppError.notFound("invoice");
  return invoice;
}
