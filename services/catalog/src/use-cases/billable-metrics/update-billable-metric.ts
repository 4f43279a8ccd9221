import { Subjects } from "@billing/bus";
import type { Patch } from "../../domain/patch";
import type { BillableMetric } from "../../domain/types";
import { billableMetricEvent } from "../../events/billable-metric-events";
import type { CatalogDeps } from "../deps";
import { changeRecord } from "../catalog-record-writes";
import { changedBillableMetric } from "./billable-metric-change";

/** PUT /billable_metrics/{code}: only the fields sent change; publishes billable_metric.updated. */
export async function updateBillableMetric(
  deps: CatalogDeps,
  organizationId: string,
  code: string,
  patch: Patch<BillableMetric>,
  requestId?: string,
): Promise<BillableMetric> {
  const { next, event } = await changeRecord(
    deps.billableMetrics,
    deps.clock,
    { organizationId, code, resource: "billable_metric" },
    (current) => changedBillableMetric(current, patch),
    (metric, now) => billableMetricEvent(Subjects.catalog.billableMetricUpdated, metric, now, requestId),
  );
  await deps.publishBillableMetricEvent(next.id, event!);
  return next;
}
