import { AppError } from "@billing/errors";
import { LOST_RACE, retryOnLostRace } from "@billing/mongo";
import type { Invoice } from "../../domain/invoice";
import type { InvoicingDeps } from "../deps";
import { refreshDraft } from "./refresh-draft";

/**
 * PUT /invoices/{id}/refresh: a draft's fees recomputed from the usage stored now, written only
 * over the revision it was read at; any other visible invoice is answered as it is (as Lago).
 */
export async function refreshInvoice(deps: InvoicingDeps, organizationId: string, id: string): Promise<Invoice> {
  return retryOnLostRace(`refresh of invoice ${id}`, async () => {
    const invoice = await deps.invoices.find(organizationId, id);
    if (!invoice) throw AppError.notFound("invoice");
    // a finalized invoice never changes; a draft being finalized keeps the fees its finalization took
    if (invoice.status !== "draft" || invoice.finalizing) return invoice;
    const refreshed = await refreshDraft(deps, invoice);
    if (!(await deps.invoices.changeOpen(invoice, { set: refreshed }))) return LOST_RACE;
    return { ...invoice, ...refreshed, revision: invoice.revision + 1 };
  });
}
