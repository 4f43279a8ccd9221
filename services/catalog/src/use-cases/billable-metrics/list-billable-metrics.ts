import type { PageRequest } from "@billing/mongo";
import type { CatalogDeps } from "../deps";

/** GET /billable_metrics: newest first. */
export function listBillableMetrics(deps: CatalogDeps, organizationId: string, page: PageRequest) {
  return deps.billableMetrics.listLive(organizationId, page);
}
