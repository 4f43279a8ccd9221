import { AppError } from "@billing/errors";
import { LOST_RACE, retryOnLostRace } from "@billing/mongo";
import { appliedCustomSections } from "../../domain/compose-invoice";
import type { Invoice } from "../../domain/invoice";
import type { FinalizeDeps } from "./deps";
import { refreshDraft } from "./refresh-draft";
import { sectionsOfInvoice } from "./invoice-sections";

/**
 * PUT /invoices/{id}/refresh: a draft's fees recomputed from the usage stored now and its custom
 * sections applied again, written only over the revision it was read at; any other visible
 * invoice is answered as it is (as Lago).
 */
export async function refreshInvoice(
  deps: Pick<FinalizeDeps, "billingEntities" | "clock" | "copies" | "documentParties" | "invoices" | "usage">,
  organizationId: string,
  id: string,
): Promise<Invoice> {
  return retryOnLostRace(`refresh of invoice ${id}`, async () => {
    const invoice = await deps.invoices.find(organizationId, id);
    if (!invoice) throw AppError.notFound("invoice");
    // a finalized invoice never changes; a draft being finalized keeps the fees its finalization took
    if (invoice.status !== "draft" || invoice.finalizing) return invoice;
    const fresh = await refreshDraft(deps, invoice);
    // the custom sections applied again, as Lago's refresh does (a section changed since shows its new details)
    const customerSections = await deps.documentParties.sections(organizationId, invoice.external_customer_id);
    const sections = customerSections && (await sectionsOfInvoice(deps, invoice, customerSections));
    const refreshed = {
      ...fresh,
      ...(sections ? { applied_custom_sections: appliedCustomSections(invoice.id, sections, fresh.updated_at) } : {}),
    };
    if (!(await deps.invoices.changeOpen(invoice, { set: refreshed }))) return LOST_RACE;
    return { ...invoice, ...refreshed, revision: invoice.revision + 1 };
  });
}
