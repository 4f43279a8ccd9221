import { AppError } from "@billing/errors";
import type { ChargeFilter } from "@billing/pricing";
import type { UsageMessages } from "@billing/contracts";
import type { AggregateQuery, Aggregated, Bucket } from "../use-cases/aggregate/aggregate-usage";
import { instantField } from "./instant-field";

/** Proto ⇄ domain for Aggregate. */
export type AggregateRequest = UsageMessages.AggregateRequest__Output;

const invalid = (field: string) => AppError.validation({ [field]: ["value_is_invalid"] });

const isValues = (v: unknown): v is Record<string, string[]> =>
  !!v && typeof v === "object" && !Array.isArray(v) && Object.values(v).every((x) => Array.isArray(x) && x.every((s) => typeof s === "string"));

/** filters_json: an array of `{key: [values]}` (or charge filters `{values: {key: [values]}}`). */
function filters(json: string | null | undefined): ChargeFilter[] {
  if (!json) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw invalid("filters");
  }
  if (!Array.isArray(parsed)) throw invalid("filters");
  return parsed.map((f: unknown) => {
    const values = f && typeof f === "object" && "values" in f ? (f as { values: unknown }).values : f;
    if (!isValues(values)) throw invalid("filters");
    return { values };
  });
}

export function toAggregateQuery(r: AggregateRequest): AggregateQuery {
  if (!r.organization_id || !r.external_subscription_id || !r.code) throw AppError.validation({ base: ["value_is_mandatory"] });
  return {
    organizationId: r.organization_id,
    externalSubscriptionId: r.external_subscription_id,
    code: r.code,
    from: instantField(r.from, "from", "value_is_invalid"),
    to: instantField(r.to, "to", "value_is_invalid"),
    filters: filters(r.filters_json),
    groupedBy: r.grouped_by ?? [],
    withRunningTotals: r.with_running_totals === true,
  };
}

const bucketMessage = (b: Bucket): UsageMessages.AggregateBucket => ({
  key_json: JSON.stringify(b.key),
  units: b.result.units.toFixed(),
  events_count: b.result.eventsCount,
});

/** An aggregation → the AggregateResponse message. */
export function aggregateReply(result: Aggregated): UsageMessages.AggregateResponse {
  return {
    units: result.total.units,
    events_count: result.total.eventsCount,
    filters: result.filters.map(bucketMessage),
    groups: result.groups.map(bucketMessage),
    ...(result.runningTotals ? { running_totals_json: JSON.stringify(result.runningTotals) } : {}),
  };
}
