import type { Invoice } from "../../domain/invoice";
import type { InvoicingDeps } from "../deps";
import { rebuildDraft } from "./rebuild-invoice";

/** PUT /invoices/{id}/refresh: the draft's fees recomputed from the usage stored now. */
export function refreshInvoice(deps: InvoicingDeps, organizationId: string, id: string): Promise<Invoice> {
  return rebuildDraft(deps, organizationId, id, false);
}
