import {
  advanceFeeStep,
  carriedIntoPeriod,
  type AdvanceBucketState,
  type BillableMetric,
  type ChargeModelName,
  type MetricFilter,
  type UsageEvent,
} from "@billing/pricing";
import { parseAdvanceChargeSnapshot, type AdvanceChargeSnapshot } from "../../domain/charge-version";
import type { CatalogCopies, SubscriptionCopy } from "../../domain/read-copies";
import type { AdvanceStore } from "../../persistence/advance-store";
import { eventKey } from "../../domain/usage-event";
import type { UsageCollections } from "../../persistence/collections";
import { advanceFeeId, billedAt, periodOf } from "../advance/price-advance-events";
import { bucketOf } from "../estimate/charge-buckets";
import { rawEventsOfMany } from "./raw-events";

/** One pay-in-advance charge over one charges period of one subscription, and the fees of it to re-derive. */
export interface AdvanceAsk {
  subscriptionId: string;
  chargeId: string;
  /** the charges period, as the fees carry it */
  from: Date;
  to: Date;
  feeIds: readonly string[];
  /** the charge version the fees were priced with (null: priced before versions, replayed on the current copies) */
  chargeVersion: string | null;
}

export interface RederivedAdvanceFee {
  feeId: string;
  eventTransactionId: string;
  eventTimestamp: Date;
  chargeFilterIndex: number | null;
  groupedBy: Record<string, string | null>;
  units: string;
  amountCents: number;
  preciseAmountCents: string;
  /** 1 = the fee of the period's first event on the charge */
  replayPosition: number;
}

export interface RederivedAdvanceCharge {
  /** null when replayed; else why not */
  error: string | null;
  billableMetricCode: string;
  eventsRead: number;
  /** the wanted fees the replay gave */
  fees: RederivedAdvanceFee[];
}

type PricingMetric = BillableMetric & { filters: MetricFilter[] };

/** Where the replay reads events from: the period's start, or the subscription's start for a recurring metric (its buckets carry over). */
function eventsFromOf(copy: SubscriptionCopy, recurring: boolean, ask: AdvanceAsk): number {
  const started = Date.parse(copy.subscription.started_at ?? copy.subscription.subscription_at);
  return recurring ? Math.min(started, ask.from.getTime()) : ask.from.getTime();
}

/** The copy as it stood at `at`: a termination after `at` not yet known. */
function asAt(copy: SubscriptionCopy, at: Date): SubscriptionCopy {
  const end = copy.subscription.terminated_at;
  return end && Date.parse(end) > at.getTime()
    ? { ...copy, subscription: { ...copy.subscription, terminated_at: null } }
    : copy;
}

/**
 * Pay-in-advance fees re-derived from the RAW events stored for their charges period: every event
 * of the charge's metric on the subscription in the period (since the subscription's start for a
 * recurring metric, whose buckets carry over), in the order they were stored — ingest message,
 * then its place in the message, the order the `billing.usage.event.ingested` envelopes list them
 * and the pay-in-advance consumer prices them — each priced by the pricing library's
 * `advanceFeeStep` from its bucket's state (filter, pricing group, period) as the replay left it,
 * so each event's fee is reproduced, high-water mark included, whatever fees were deleted or
 * invoiced since. The charge, its filters, the metric and the currency are those the fees were
 * priced with: the snapshot of the ask's charge version (stored by the pricing before any fee named
 * it), whatever the plan or the metric became since. Fees priced before versions (no version), or
 * a version whose snapshot is not found, are replayed on the subscription's current read copies (a
 * charge changed since then shows as a mismatch, never silently). The subscription's periods and
 * termination are its copy's, as when it was priced. The events of an ask are all replayed with
 * its version: fees of one period priced with two versions (the charge changed within the
 * period) are asked once per version, and each replay moves the buckets with its own charge.
 * Reads: `rawEventsOfMany` and the snapshots (`_id` reads only).
 */
export async function rederiveAdvanceFees(
  deps: { collections: UsageCollections; copies: CatalogCopies; store: Pick<AdvanceStore, "chargeVersionsByIds"> },
  input: { organizationId: string; externalSubscriptionId: string; asks: readonly AdvanceAsk[] },
): Promise<RederivedAdvanceCharge[]> {
  const org = input.organizationId;
  const copies = deps.copies.subscriptions(org, input.externalSubscriptionId);
  const versionIds = [...new Set(input.asks.map((a) => a.chargeVersion).filter((v): v is string => !!v))];
  const snapshots = new Map<string, AdvanceChargeSnapshot>();
  for (const doc of await deps.store.chargeVersionsByIds(versionIds)) {
    const snapshot = parseAdvanceChargeSnapshot(doc.json);
    if (snapshot) snapshots.set(doc._id, snapshot);
  }
  const plans = input.asks.map((ask) => {
    const copy = copies.find((c) => c.subscription.svc_id === ask.subscriptionId);
    const snapshot = ask.chargeVersion ? snapshots.get(ask.chargeVersion) : undefined;
    if (copy && snapshot && snapshot.charge.svc_id === ask.chargeId) {
      const { charge, metric, currency } = snapshot;
      if (!charge.pay_in_advance)
        return { ask, error: "the charge version is not paid in advance", code: metric.code } as const;
      return {
        ask,
        error: null,
        copy,
        charge,
        metric,
        currency,
        code: metric.code,
        eventsFrom: eventsFromOf(copy, metric.recurring, ask),
      };
    }
    const charge = copy?.plan.charges.find((c) => c.svc_id === ask.chargeId);
    const metric = charge ? deps.copies.metricByCode(org, charge.billable_metric_code) : null;
    if (!copy || !charge)
      return { ask, error: `the charge ${ask.chargeId} is not on the subscription's plan any more`, code: "" } as const;
    if (!metric || metric.svc_id !== charge.svc_billable_metric_id)
      return {
        ask,
        error: `the billable metric ${charge.billable_metric_code} is gone`,
        code: charge.billable_metric_code,
      } as const;
    if (!charge.pay_in_advance)
      return { ask, error: "the charge is not paid in advance any more", code: metric.code } as const;
    return {
      ask,
      error: null,
      copy,
      charge,
      metric,
      currency: copy.plan.amount_currency,
      code: metric.code,
      eventsFrom: eventsFromOf(copy, metric.recurring, ask),
    };
  });
  const replayed = plans.filter((p) => p.error === null);
  const eventLists = await rawEventsOfMany(
    deps.collections,
    replayed.map((p) => ({
      organizationId: org,
      externalSubscriptionId: input.externalSubscriptionId,
      code: p.code,
      from: new Date(p.eventsFrom!),
      to: new Date(p.ask.to.getTime() + 1),
    })),
    "stored",
  );
  return plans.map((p): RederivedAdvanceCharge => {
    if (p.error !== null) return { error: p.error, billableMetricCode: p.code, eventsRead: 0, fees: [] };
    const { ask, copy, charge, metric, currency } = p;
    const events = eventLists[replayed.indexOf(p)]!;
    const pricingMetric = metric as unknown as PricingMetric;
    const wanted = new Set(ask.feeIds);
    const periodFrom = ask.from.toISOString();
    const states = new Map<string, AdvanceBucketState>();
    const fees: RederivedAdvanceFee[] = [];
    let position = 0;
    for (const e of events) {
      if (billedAt(copies, e.timestamp)?.subscription.svc_id !== copy.subscription.svc_id) continue;
      const at = new Date(e.timestamp);
      const usageEvent: UsageEvent = { transaction_id: e.transaction_id, timestamp: at, properties: e.properties };
      const bucket = bucketOf(charge, pricingMetric, usageEvent);
      // the period as it was when the event was priced: a termination (or upgrade) after it had not
      // cut the period short yet
      const period = periodOf(asAt(copy, at), at);
      const eventPeriod = period.from.toISOString();
      const key = `${bucket.key}|${metric.recurring ? "recurring" : eventPeriod}`;
      const stored = states.get(key) ?? null;
      const current = stored && metric.recurring ? carriedIntoPeriod(stored, eventPeriod) : stored;
      const step = advanceFeeStep({
        charge: {
          charge_model: charge.charge_model as ChargeModelName,
          properties: bucket.properties,
          prorated: charge.prorated,
        },
        metric: pricingMetric,
        event: usageEvent,
        state: current,
        currency,
        premium: true,
        period,
      });
      states.set(key, metric.recurring ? { ...step.state, period_from: eventPeriod } : step.state);
      if (eventPeriod !== periodFrom) continue;
      position++;
      const feeId = advanceFeeId(
        org,
        eventKey(org, input.externalSubscriptionId, e.transaction_id),
        charge.svc_id,
        bucket.index,
      );
      if (!wanted.has(feeId)) continue;
      const groupedBy: Record<string, string | null> = {};
      for (const k of bucket.keys) groupedBy[k] = e.properties[k] == null ? null : String(e.properties[k]);
      fees.push({
        feeId,
        eventTransactionId: e.transaction_id,
        eventTimestamp: at,
        chargeFilterIndex: bucket.index,
        groupedBy,
        units: step.fee.units,
        amountCents: step.fee.amount_cents,
        preciseAmountCents: step.fee.precise_amount_cents,
        replayPosition: position,
      });
    }
    return { error: null, billableMetricCode: metric.code, eventsRead: events.length, fees };
  });
}
