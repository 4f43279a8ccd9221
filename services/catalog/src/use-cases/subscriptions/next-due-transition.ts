import type { CatalogDeps } from "../deps";

/** When the organization's next subscription transition is due, after `after` (none scheduled: null); a test clock asks. */
export function nextDueTransition(deps: CatalogDeps, organizationId: string, after: Date): Promise<Date | null> {
  return deps.subscriptions.nextDue(organizationId, after);
}
