import type { Logger } from "@billing/logger";
import type { CatalogDeps } from "../deps";
import { applyDueTransitions } from "./apply-due-transitions";

/**
 * A sandbox organization's test clock has reached now (`deps.clock` answers its frozen time):
 * every transition due at or before it happens, passes repeated until none is left (a downgrade's
 * activation may end its predecessor, an activation may be due at once).
 */
export async function runDueTransitions(deps: CatalogDeps, organizationId: string, logger?: Logger): Promise<number> {
  let done = 0;
  for (let round = 0; round < 100; round++) {
    const changed = await applyDueTransitions(deps, logger, { organizationId });
    if (changed === 0) break;
    done += changed;
  }
  return done;
}
