import type { DueScope } from "../../persistence/copy-repository";
import type { InvoicingDeps } from "../deps";
import { rebuildDraft } from "./rebuild-invoice";

/** Drafts whose grace period has ended are refreshed and finalized. Returns how many. */
export async function finalizeDueDrafts(deps: InvoicingDeps, scope: DueScope = {}, batch = 200): Promise<number> {
  let done = 0;
  for (const draft of await deps.invoices.dueDrafts(deps.clock.now(), batch, scope)) {
    try {
      await rebuildDraft(deps, draft.organization_id, draft.id, true);
      done++;
    } catch (err) {
      deps.logger.error({ err, invoice_id: draft.id }, "could not finalize a draft at the end of its grace period");
    }
  }
  return done;
}
