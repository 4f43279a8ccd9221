import { Subjects } from "@billing/bus";
import type { BillableMetric } from "../../domain/types";
import { billableMetricEvent } from "../../events/billable-metric-events";
import type { CatalogDeps } from "../deps";
import { deleteRecord } from "../catalog-record-writes";

/** DELETE /billable_metrics/{code}: a soft delete (code free again); publishes billable_metric.deleted. */
export async function deleteBillableMetric(
  deps: CatalogDeps,
  organizationId: string,
  code: string,
  requestId?: string,
): Promise<BillableMetric> {
  const { next, event } = await deleteRecord(
    deps.billableMetrics,
    deps.clock,
    { organizationId, code, resource: "billable_metric" },
    undefined,
    (metric, now) => billableMetricEvent(Subjects.catalog.billableMetricDeleted, metric, now, requestId),
  );
  await deps.publishBillableMetricEvent(next.id, event!);
  return next;
}
