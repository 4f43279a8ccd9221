import type { DueScope } from "../../persistence/copy-repository";
import type { FinalizeDeps, InvoiceDeps } from "./deps";
import { finalizeOpenInvoices } from "./finalize-open-invoice";

/**
 * Open invoices whose time has come are finalized, together: drafts at the end of their grace
 * period (refreshed first), and any finalization a crash interrupted. Returns how many.
 */
export async function finalizeDueInvoices(
  deps: FinalizeDeps & Pick<InvoiceDeps, "logger">,
  scope: DueScope = {},
): Promise<number> {
  const due = await deps.invoices.dueOpen(deps.clock.now(), deps.limits.batch, scope);
  let done = 0;
  for (const refresh of [true, false]) {
    const ids = due.filter((invoice) => (invoice.status === "draft") === refresh).map((invoice) => invoice.id);
    if (ids.length === 0) continue;
    try {
      await finalizeOpenInvoices(deps, ids, { refresh });
      done += ids.length;
    } catch (err) {
      deps.logger.error({ err, invoices: ids.length }, "could not finalize every due invoice; will retry");
    }
  }
  return done;
}
