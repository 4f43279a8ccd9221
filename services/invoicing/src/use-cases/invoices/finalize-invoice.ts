import { AppError } from "@billing/errors";
import type { Invoice } from "../../domain/invoice";
import type { FinalizeDeps } from "./deps";
import { finalizeOpenInvoice } from "./finalize-open-invoice";

/**
 * PUT /invoices/{id}/finalize: only one of the organization's drafts qualifies; it is refreshed,
 * then finalized. Anything else (finalized, closed, unknown, another organization's) is
 * invoice_not_found, as Lago answers.
 */
export async function finalizeInvoice(deps: FinalizeDeps, organizationId: string, id: string): Promise<Invoice> {
  const draft = await deps.invoices.find(organizationId, id, ["draft"]);
  if (!draft) throw AppError.notFound("invoice");
  const finalized = await finalizeOpenInvoice(deps, draft.id, { refresh: true });
  if (!finalized || finalized.status === "closed") throw AppError.notFound("invoice");
  return finalized;
}
