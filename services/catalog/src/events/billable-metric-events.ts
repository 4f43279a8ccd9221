import type { Envelope, Subjects } from "@billing/bus";
import { domainEvent, type EventDataInput } from "@billing/contracts";
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
): Envelope<EventDataInput<typeof type>> {
  return domainEvent(type, {
    organizationId: metric.organization_id,
    data: { billable_metric: billableMetricView(metric) },
    occurredAt: now,
    correlationId: correlationId ?? null,
  });
}
