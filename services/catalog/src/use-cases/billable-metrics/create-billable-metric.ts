import { randomUUID } from "node:crypto";
import { Subjects } from "@billing/bus";
import type { Patch } from "../../domain/patch";
import type { BillableMetric } from "../../domain/types";
import { billableMetricEvent } from "../../events/billable-metric-events";
import type { CatalogDeps } from "../deps";
import { insertRecord } from "../catalog-record-writes";
import { changedBillableMetric } from "./billable-metric-change";

/** POST /billable_metrics: stored with its billable_metric.created event, then published. */
export async function createBillableMetric(
  deps: CatalogDeps,
  organizationId: string,
  patch: Patch<BillableMetric>,
  requestId?: string,
): Promise<BillableMetric> {
  const now = deps.clock.now();
  const blank: BillableMetric = {
    id: randomUUID(),
    organization_id: organizationId,
    code: "",
    name: "",
    description: null,
    aggregation_type: "",
    field_name: null,
    recurring: false,
    rounding_function: null,
    rounding_precision: null,
    weighted_interval: null,
    expression: null,
    filters: [],
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
  const metric = changedBillableMetric(blank, patch);
  const event = billableMetricEvent(Subjects.catalog.billableMetricCreated, metric, now, requestId);
  await insertRecord(deps.billableMetrics, metric, event);
  await deps.publishBillableMetricEvent(metric.id, event);
  return metric;
}
