import { AppError } from "@billing/errors";
import type { ChargeFilter } from "@billing/pricing";
import {
  filterValuesFromProto,
  filterValuesToProto,
  groupedByToProto,
  type CommonMessages,
  type UsageMessages,
} from "@billing/contracts";
import type { AggregateQuery, Aggregated, Bucket } from "../use-cases/aggregate/aggregate-usage";
import { instantField } from "./instant-field";

/** Proto ⇄ domain for Aggregate. */
export type AggregateRequest = UsageMessages.AggregateRequest__Output;

/** The filters asked: their values (a charge filter's properties play no part in an aggregation). */
const filters = (messages: readonly CommonMessages.ChargeFilter__Output[]): ChargeFilter[] =>
  messages.map((m) => ({ values: filterValuesFromProto(m.values) }));

export function toAggregateQuery(r: AggregateRequest): AggregateQuery {
  if (!r.organization_id || !r.external_subscription_id || !r.code)
    throw AppError.validation({ base: ["value_is_mandatory"] });
  return {
    organizationId: r.organization_id,
    externalSubscriptionId: r.external_subscription_id,
    code: r.code,
    from: instantField(r.from, "from", "value_is_invalid"),
    to: instantField(r.to, "to", "value_is_invalid"),
    filters: filters(r.filters),
    groupedBy: r.grouped_by ?? [],
    withRunningTotals: r.with_running_totals === true,
  };
}

const amounts = (b: Bucket<unknown>) => ({ units: b.result.units.toFixed(), events_count: b.result.eventsCount });

/** An aggregation → the AggregateResponse message. */
export function aggregateReply(result: Aggregated): UsageMessages.AggregateResponse {
  return {
    units: result.total.units,
    events_count: result.total.eventsCount,
    filters: result.filters.map((b) => ({ filter_values: filterValuesToProto(b.key), ...amounts(b) })),
    groups: result.groups.map((b) => ({ grouped_by: groupedByToProto(b.key), ...amounts(b) })),
    running_totals: result.runningTotals ?? [],
  };
}
