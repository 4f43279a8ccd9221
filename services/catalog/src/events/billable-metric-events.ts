import type { Envelope, Subjects } from "@billing/bus";
import { domainEvent, type EventDataInput } from "@billing/contracts";
import type { BillableMetric } from "../domain/types";
import { billableMetricView } from "../domain/views";

type Catalog = typeof Subjects.catalog;
export type BillableMetricEventType =
  Catalog["billableMetricCreated"] | Catalog["billableMetricUpdated"] | Catalog["billableMetricDeleted"];

/**
 * billing.catalog.billable_metric.created|updated|deleted, carrying the metric's whole view (usage keeps a copy).
 * `domainEvent` checks the data against the subject's schema in @billing/contracts, at build and when built.
 */
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
