import { derivedUuid } from "@billing/bus";
import {
  advanceFeeStep,
  carriedIntoPeriod,
  billingPeriodFor,
  type AdvanceBucketState,
  type BillableMetric,
  type BillingTime,
  type ChargeModelName,
  type MetricFilter,
  type PlanInterval,
  type UsageEvent,
} from "@billing/pricing";
import type { CatalogCopies, ChargeCopy, SubscriptionCopy } from "../../domain/read-copies";
import type { AdvanceStore, BucketChange } from "../../persistence/advance-store";
import { bucketOf } from "../estimate/charge-buckets";
import type { AdvanceFee } from "./advance-fee";

/** An event of a `billing.usage.event.ingested` envelope (Lago's EventObject). */
export interface IngestedEvent {
  svc_id: string;
  transaction_id: string;
  external_subscription_id: string;
  code: string;
  timestamp: string;
  properties?: Record<string, unknown> | null;
}

export interface AdvanceDeps {
  copies: CatalogCopies;
  store: AdvanceStore;
  /** bucket states this process moved last (by id): most envelopes need no read */
  cache?: Map<string, { rev: number; st: AdvanceBucketState }>;
}

const CACHE_LIMIT = 200_000;
const ATTEMPTS = 4;

const pricingMetric = (m: { aggregation_type: string }) => m as unknown as BillableMetric & { filters: MetricFilter[] };

/** The subscription copy an event bills: the one of its external id that had started by the event and was not over before it. */
function subscriptionAt(copies: CatalogCopies, org: string, externalId: string, at: number): SubscriptionCopy | null {
  return (
    copies.subscriptions(org, externalId).find((c) => {
      const s = c.subscription;
      if (s.status === "pending" || s.status === "canceled") return false;
      const start = Date.parse(s.started_at ?? s.subscription_at);
      const end = s.terminated_at ? Date.parse(s.terminated_at) : Infinity;
      return start <= at && at <= end;
    }) ?? null
  );
}

/** The charges period holding `at` (billing-rules §4: months for yearly plans billing charges monthly), with its length in days. */
export function periodOf({ subscription: s, plan }: SubscriptionCopy, at: Date) {
  const monthly = plan.bill_charges_monthly === true && (plan.interval === "yearly" || plan.interval === "semiannual");
  const p = billingPeriodFor(
    {
      interval: (monthly ? "monthly" : plan.interval) as PlanInterval,
      billing_time: s.billing_time as BillingTime,
      subscription_at: s.subscription_at,
      started_at: s.started_at ?? s.subscription_at,
      terminated_at: s.terminated_at,
      timezone: s.timezone,
    },
    at,
  );
  return { from: p.from_datetime, to: p.to_datetime, periodDays: p.period_days, timeZone: s.timezone ?? "UTC" };
}

/** The fee's id: one per (event, charge, filter), whoever computes it and however often. */
export const advanceFeeId = (org: string, eventKey: string, chargeId: string, filterIndex: number | null) =>
  derivedUuid(`advance_fee|${org}|${eventKey}|${chargeId}|${filterIndex ?? ""}`);

interface Work {
  event: IngestedEvent;
  at: Date;
  copy: SubscriptionCopy;
  charge: ChargeCopy;
  metric: ReturnType<CatalogCopies["metricByCode"]> & object;
  bucketId: string;
  bucket: ReturnType<typeof bucketOf>;
  period: ReturnType<typeof periodOf>;
}

/**
 * PriceAdvanceEvents: the fees the events of one ingested envelope create on their subscriptions'
 * pay-in-advance charges (billing-rules §1.11–1.12), priced from each bucket's stored running state
 * (no read of the period's events): one `_id` read for the envelope's answer, the buckets from
 * memory (read by `_id` when not there), one write of the answer, one bulk write of the states.
 * The answer is stored before the states move: asking again about the envelope answers the same
 * fees and moves nothing twice. Envelopes must come in stream order, one at a time (invoicing's
 * consumer asks so); a bucket moved by another process meanwhile makes the envelope be priced again.
 */
export async function priceAdvanceEvents(deps: AdvanceDeps, input: { organizationId: string; envelopeId: string; events: readonly IngestedEvent[] }): Promise<AdvanceFee[]> {
  const org = input.organizationId;
  const answerId = `${org}|${input.envelopeId}`;
  const cache = deps.cache ?? new Map();
  const known = await deps.store.answer(answerId);
  if (known) {
    await deps.store.applyChanges(answerId, known.changes);
    remember(cache, known.changes);
    return JSON.parse(known.fees) as AdvanceFee[];
  }
  const work = plan(deps.copies, org, input.events);
  if (work.length === 0) return [];

  for (let attempt = 1; ; attempt++) {
    const ids = [...new Set(work.map((w) => w.bucketId))];
    const missing = ids.filter((id) => !cache.has(id));
    const states = new Map<string, { rev: number; st: AdvanceBucketState | null }>(ids.filter((id) => cache.has(id)).map((id) => [id, cache.get(id)!]));
    for (const doc of await deps.store.bucketsByIds(missing)) states.set(doc._id, { rev: doc.rev, st: doc.st });
    const fromRev = new Map(ids.map((id) => [id, states.get(id)?.rev ?? 0]));

    const fees: AdvanceFee[] = [];
    const seen = new Set<string>();
    for (const w of work) {
      const id = advanceFeeId(org, eventKey(org, w.event), w.charge.svc_id, w.bucket.index);
      if (seen.has(id)) continue; // the same event twice in an envelope (it is stored once)
      seen.add(id);
      const stored = states.get(w.bucketId)?.st ?? null;
      const periodFrom = w.period.from.toISOString();
      const current = stored && w.metric.recurring ? carriedIntoPeriod(stored, periodFrom) : stored;
      const usageEvent: UsageEvent = { transaction_id: w.event.transaction_id, timestamp: w.at, properties: w.event.properties ?? {} };
      const step = advanceFeeStep({
        charge: { charge_model: w.charge.charge_model as ChargeModelName, properties: w.bucket.properties, prorated: w.charge.prorated },
        metric: pricingMetric(w.metric), event: usageEvent, state: current, currency: w.copy.plan.amount_currency, premium: true, period: w.period,
      });
      states.set(w.bucketId, { rev: states.get(w.bucketId)?.rev ?? 0, st: w.metric.recurring ? { ...step.state, period_from: periodFrom } : step.state });
      fees.push(feeOf(org, w, id, step.fee));
    }
    const changes: BucketChange[] = ids.map((id) => ({ id, from_rev: fromRev.get(id)!, st: states.get(id)!.st! }));
    if (!(await deps.store.insertAnswer({ _id: answerId, fees: JSON.stringify(fees), changes }))) {
      // answered meanwhile (another replica): that answer counts
      return priceAdvanceEvents(deps, input);
    }
    const moved = await deps.store.applyChanges(answerId, changes);
    if (moved.length === 0) {
      remember(cache, changes);
      return fees;
    }
    // priced from a stale state: forget it and price the envelope again
    await deps.store.deleteAnswer(answerId);
    for (const id of moved) cache.delete(id);
    if (attempt >= ATTEMPTS) throw new Error(`pay-in-advance buckets of envelope ${input.envelopeId} keep moving; retry later`);
  }
}

const eventKey = (org: string, e: IngestedEvent) => JSON.stringify([org, e.external_subscription_id, e.transaction_id]);

function remember(cache: Map<string, { rev: number; st: AdvanceBucketState }>, changes: readonly BucketChange[]) {
  if (cache.size > CACHE_LIMIT) cache.clear();
  for (const c of changes) cache.set(c.id, { rev: c.from_rev + 1, st: c.st });
}

/** Each event × pay-in-advance charge of its metric on the subscription it bills, with its bucket and period. */
function plan(copies: CatalogCopies, org: string, events: readonly IngestedEvent[]): Work[] {
  const work: Work[] = [];
  for (const event of events) {
    const at = new Date(event.timestamp);
    const metric = copies.metricByCode(org, event.code);
    if (!metric || Number.isNaN(at.getTime())) continue;
    const copy = subscriptionAt(copies, org, event.external_subscription_id, at.getTime());
    if (!copy) continue;
    for (const charge of copy.plan.charges) {
      if (!charge.pay_in_advance || charge.svc_billable_metric_id !== metric.svc_id) continue;
      const usageEvent: UsageEvent = { timestamp: at, properties: event.properties ?? {} };
      const bucket = bucketOf(charge, pricingMetric(metric), usageEvent);
      const period = periodOf(copy, at);
      // a recurring metric's bucket lives across periods (its units carry over); others start again each period
      const bucketId = `${org}|${copy.subscription.svc_id}|${charge.svc_id}|${bucket.key}|${metric.recurring ? "recurring" : period.from.toISOString()}`;
      work.push({ event, at, copy, charge, metric, bucketId, bucket, period });
    }
  }
  return work;
}

function feeOf(org: string, w: Work, id: string, fee: ReturnType<typeof advanceFeeStep>["fee"]): AdvanceFee {
  const s = w.copy.subscription;
  const filter = w.bucket.index === null ? null : w.charge.filters[w.bucket.index]!;
  const groupedBy: Record<string, string | null> = {};
  for (const k of w.bucket.keys) {
    const v = w.event.properties?.[k];
    groupedBy[k] = v == null ? null : String(v);
  }
  return {
    id,
    organization_id: org,
    event_key: eventKey(org, w.event),
    event_svc_id: w.event.svc_id,
    event_transaction_id: w.event.transaction_id,
    event_timestamp: w.at.toISOString(),
    subscription_id: s.svc_id,
    external_subscription_id: s.external_id,
    customer_id: s.svc_customer_id,
    external_customer_id: s.external_customer_id,
    plan_id: w.copy.plan.svc_id,
    plan_code: w.copy.plan.code,
    charge_id: w.charge.svc_id,
    charge_filter_index: w.bucket.index,
    filter: filter ? { values: filter.values, invoice_display_name: filter.invoice_display_name ?? null } : null,
    metric: { svc_id: w.metric.svc_id, code: w.metric.code, name: w.metric.name, description: w.metric.description ?? null, aggregation_type: w.metric.aggregation_type },
    charge_model: w.charge.charge_model,
    invoice_display_name: w.charge.invoice_display_name ?? null,
    invoiceable: w.charge.invoiceable,
    regroup_paid_fees: w.charge.regroup_paid_fees ?? null,
    prorated: w.charge.prorated,
    currency: w.copy.plan.amount_currency,
    units: fee.units,
    amount_cents: fee.amount_cents,
    precise_amount_cents: fee.precise_amount_cents,
    unit_amount_cents: fee.unit_amount_cents,
    precise_unit_amount: fee.precise_unit_amount,
    amount_details: fee.amount_details,
    grouped_by: groupedBy,
    properties: w.bucket.properties as Record<string, unknown>,
    charge_taxes: w.charge.taxes,
    plan_taxes: w.copy.plan.taxes,
    from: w.period.from.toISOString(),
    to: w.period.to.toISOString(),
    timezone: w.period.timeZone,
  };
}
