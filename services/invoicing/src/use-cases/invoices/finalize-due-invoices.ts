import type { DueScope } from "../../persistence/copy-repository";
import { runBounded } from "../billing/run-bounded";
import type { InvoicingDeps } from "../deps";
import { finalizeOpenInvoice } from "./finalize-open-invoice";

/**
 * Open invoices whose time has come are finalized: drafts at the end of their grace period
 * (refreshed first), and any finalization a crash interrupted. Returns how many.
 */
export async function finalizeDueInvoices(deps: InvoicingDeps, scope: DueScope = {}): Promise<number> {
  let done = 0;
  await runBounded(await deps.invoices.dueOpen(deps.clock.now(), deps.limits.batch, scope), deps.limits.concurrency, async (invoice) => {
    try {
      await finalizeOpenInvoice(deps, invoice.id, { refresh: invoice.status === "draft" });
      done++;
    } catch (err) {
      deps.logger.error({ err, invoice_id: invoice.id }, "could not finalize a due invoice; will retry");
    }
  });
  return done;
}
