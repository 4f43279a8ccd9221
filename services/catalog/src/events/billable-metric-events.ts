import { makeEnvelope, Subjects, type Envelope } from "@billing/bus";
import type { BillableMetric } from "../domain/types";
import { billableMetricView, type BillableMetricView } from "../domain/views";

type Catalog = typeof Subjects.catalog;
export type BillableMetricEventType = Catalog["billableMetricCreated"] | Catalog["billableMetricUpdated"] | Catalog["billableMetricDeleted"];

export interface BillableMetricEventData {
  billable_metric: BillableMetricView;
}

/** billing.catalog.billable_metric.created|updated|deleted, carrying the metric's whole view (usage keeps a copy). */
export function billableMetricEvent(
  type: BillableMetricEventType,
  metric: BillableMetric,
  now: Date,
  correlationId?: string,
): Envelope<BillableMetricEventData> {
  return makeEnvelope({
    type,
    organizationId: metric.organization_id,
    data: { billable_metric: billableMetricView(metric) },
    occurredAt: now,
    correlationId: correlationId ?? null,
  });
}
