import type { Invoice } from "../../domain/invoice";
import type { InvoicingDeps } from "../deps";
import { rebuildDraft } from "./rebuild-invoice";

/** PUT /invoices/{id}/finalize: the draft is refreshed, then finalized with its number. */
export function finalizeInvoice(deps: InvoicingDeps, organizationId: string, id: string): Promise<Invoice> {
  return rebuildDraft(deps, organizationId, id, true);
}
