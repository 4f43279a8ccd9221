import { AppError } from "@billing/errors";
import type { BillableMetric } from "../../domain/types";
import type { CatalogDeps } from "../deps";

/** GET /billable_metrics/{code}. */
export async function getBillableMetric(
  deps: CatalogDeps,
  organizationId: string,
  code: string,
): Promise<BillableMetric> {
  const metric = await deps.billableMetrics.findLive(organizationId, code);
  if (!metric) throw AppError.notFound("billable_metric");
  return metric;
}
