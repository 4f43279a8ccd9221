import { derivedUuid, RetryLater } from "@billing/bus";
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
import { advanceChargeSnapshot } from "../../domain/charge-version";
import { advanceFeesText, parseAdvanceFees, type AdvanceFeeData, type UsageEventData } from "@billing/contracts";
import type { AdvanceAnswerDoc, AdvanceStore, BucketChange } from "../../persistence/advance-store";
import { bucketOf } from "../estimate/charge-buckets";
import { advancePricingPhaseSeconds } from "../../metrics";
import { eventKey } from "../../domain/usage-event";

export interface AdvanceDeps {
  copies: CatalogCopies;
  store: AdvanceStore;
  /** bucket states this process moved last (by id): most envelopes need no read */
  cache?: Map<string, { rev: number; st: AdvanceBucketState | null }>;
  /**
   * Resolves once this process's read copies hold what the catalog's stream held when called
   * (ReadCopies.caughtUp). Asked when an event's metric or subscription is unknown here: a
   * subscription created just before its first events may not have reached these copies yet.
   */
  copiesCaughtUp?: (timeoutMs: number) => Promise<boolean>;
}

/** How long a batch with an event unknown to the read copies waits for them to catch up. */
const COPIES_CATCH_UP_MS = 5_000;

/** Whether some event's metric, or the subscription it bills, is not in the read copies. */
function someUnknown(reads: BatchReads, envelopes: readonly AdvanceEnvelopeInput[]): boolean {
  return envelopes.some((e) =>
    e.events.some((event) => {
      const at = Date.parse(event.timestamp);
      return (
        !reads.copies.metricByCode(e.organizationId, event.code) ||
        (!Number.isNaN(at) && !reads.subscriptionAt(e.organizationId, event.external_subscription_id, at))
      );
    }),
  );
}

const CACHE_LIMIT = 200_000;
const ATTEMPTS = 4;

const pricingMetric = (m: { aggregation_type: string }) => m as unknown as BillableMetric & { filters: MetricFilter[] };

/** Of the copies of one external id, the one an event at `at` bills: started by then and not over before it. */
export function billedAt(list: readonly SubscriptionCopy[], at: number): SubscriptionCopy | null {
  return (
    list.find((c) => {
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
  event: UsageEventData;
  /** the event's key (domain/usage-event: what its fee id derives from) */
  key: string;
  at: Date;
  copy: SubscriptionCopy;
  charge: ChargeCopy;
  metric: ReturnType<CatalogCopies["metricByCode"]> & object;
  bucketId: string;
  bucket: ReturnType<typeof bucketOf>;
  period: Period;
  /** what the fee shows of its charge, filter and period: one object for the envelope's fees alike */
  part: ChargePart;
}

type Period = ReturnType<typeof periodOf> & { fromIso: string; toIso: string };
type ChargePart = Pick<AdvanceFeeData, "filter" | "metric" | "properties" | "charge_version">;

/** One envelope to price: its organization, id and events. */
export interface AdvanceEnvelopeInput {
  organizationId: string;
  envelopeId: string;
  events: readonly UsageEventData[];
}

/** One envelope's fees, and their text as answered and kept (@billing/contracts' advanceFeesText). */
export interface PricedEnvelope {
  fees: AdvanceFeeData[];
  text: string;
}

/** PriceAdvanceEvents: one envelope (a batch of one). */
export async function priceAdvanceEvents(deps: AdvanceDeps, input: AdvanceEnvelopeInput): Promise<AdvanceFeeData[]> {
  return (await priceAdvanceBatch(deps, [input]))[0]!.fees;
}

const NO_FEES: PricedEnvelope = { fees: [], text: advanceFeesText([]) };

type BucketRef = { rev: number; st: AdvanceBucketState | null };

/**
 * PriceAdvanceBatch: the fees the events of consecutive ingested envelopes (in stream order) create
 * on their subscriptions' pay-in-advance charges (billing-rules §1.11–1.12), priced from each
 * bucket's stored running state (no read of the period's events), one answer per envelope:
 * 1. one `_id` read of the envelopes' answers: an envelope answered before (a redelivery, alone or
 *    in another batch; a crash after the answer) gets that answer, and its bucket moves are
 *    completed (in order; a bucket behind an answer means an earlier envelope is still to come:
 *    retried later);
 * 2. the others are priced in order, each from the states the envelopes before it left (buckets
 *    from memory, read by `_id` when not there);
 * 3. the snapshots of the charge versions the fees name are stored (once each: a version this
 *    process stored before costs nothing), then the answers in order (one ordered insert: a crash
 *    leaves a prefix), each with the bucket moves it makes, BEFORE any state moves: asking again
 *    answers the same fees and moves nothing twice, and no answer names an unstored version;
 * 4. each bucket moves once for the batch (one unordered bulk write, guarded by its revision). A
 *    bucket moved by another process meanwhile (envelopes are meant to come one batch at a time,
 *    see invoicing's consumer) makes the batch be priced again: the buckets it did move are put
 *    back at a later revision and its answers deleted first.
 */
export async function priceAdvanceBatch(
  deps: AdvanceDeps,
  envelopes: readonly AdvanceEnvelopeInput[],
): Promise<PricedEnvelope[]> {
  const cache = deps.cache ?? new Map();
  const answerIdOf = (e: AdvanceEnvelopeInput) => `${e.organizationId}|${e.envelopeId}`;
  for (let attempt = 1; ; attempt++) {
    const answers = new Map<string, PricedEnvelope>();
    const ids = [...new Set(envelopes.map(answerIdOf))];
    let phase = advancePricingPhaseSeconds.startTimer({ phase: "answers" });
    const next = (name: string) => {
      phase();
      phase = advancePricingPhaseSeconds.startTimer({ phase: name });
    };
    const known = new Map((await deps.store.answersByIds(ids)).map((a) => [a._id, a]));
    // 1. answered before: the same fees; its moves completed, in stream order
    for (const id of ids) {
      const answer = known.get(id);
      if (!answer) continue;
      const behind = await deps.store.completeAnswer(id, answer.changes);
      if (behind.length > 0)
        throw new RetryLater(
          `pay-in-advance buckets behind envelope ${id}: an earlier envelope is still to be priced`,
          500,
        );
      for (const c of answer.changes) cache.delete(c.id);
      answers.set(id, { fees: parseAdvanceFees(answer.fees), text: answer.fees });
    }
    // 2. the others, in order, from the states the envelopes before them leave
    const toPrice = envelopes.filter(
      (e, i) => !answers.has(answerIdOf(e)) && envelopes.findIndex((o) => answerIdOf(o) === answerIdOf(e)) === i,
    );
    // an event the copies do not know: wait for them to hold what the catalog had published by now
    // (after the event was acknowledged), once per call; then an unknown one bills nothing
    let reads = new BatchReads(deps.copies);
    if (attempt === 1 && deps.copiesCaughtUp && someUnknown(reads, toPrice)) {
      await deps.copiesCaughtUp(COPIES_CATCH_UP_MS);
      reads = new BatchReads(deps.copies); // what it read before the wait may have changed
    }
    next("buckets");
    const works = toPrice.map((e) => plan(reads, e.organizationId, e.events));
    const bucketIds = [...new Set(works.flat().map((w) => w.bucketId))];
    const states = new Map<string, BucketRef>();
    const missing: string[] = [];
    for (const id of bucketIds) {
      const cached = cache.get(id);
      if (cached) states.set(id, cached);
      else missing.push(id);
    }
    for (const doc of await deps.store.bucketsByIds(missing)) states.set(doc._id, { rev: doc.rev, st: doc.st });
    const before = new Map(bucketIds.map((id) => [id, states.get(id) ?? { rev: 0, st: null }]));

    next("price");
    const docs: AdvanceAnswerDoc[] = [];
    const lastEnv = new Map<string, string>();
    toPrice.forEach((e, i) => {
      const answerId = answerIdOf(e);
      const fees = priceEnvelope(e.organizationId, works[i]!, states);
      if (works[i]!.length === 0) {
        answers.set(answerId, NO_FEES); // nothing priced: nothing to keep
        return;
      }
      const text = advanceFeesText(fees);
      answers.set(answerId, { fees, text });
      const changes: BucketChange[] = [];
      for (const id of new Set(works[i]!.map((w) => w.bucketId))) {
        const now = states.get(id)!;
        changes.push({ id, from_rev: now.rev, st: now.st! });
        states.set(id, { rev: now.rev + 1, st: now.st });
        lastEnv.set(id, answerId);
      }
      docs.push({ _id: answerId, fees: text, changes });
    });
    // 3. the charge versions the answers name, then the answers, before any state moves
    next("store");
    if (docs.length > 0) await deps.store.storeChargeVersions(reads.chargeVersions());
    const stored = await deps.store.insertAnswers(docs);
    if (stored < docs.length) {
      // an envelope answered meanwhile (another replica): that answer counts; price again after it
      await deps.store.deleteAnswers(docs.slice(0, stored).map((d) => d._id));
      if (attempt >= ATTEMPTS) throw new RetryLater(`pay-in-advance envelopes answered concurrently; retry later`, 500);
      continue;
    }
    // 4. each bucket once for the batch
    const moves = [...lastEnv].map(([id, env]) => ({
      id,
      from_rev: before.get(id)!.rev,
      to_rev: states.get(id)!.rev,
      env,
      st: states.get(id)!.st!,
    }));
    next("move");
    const conflicts = new Set(await deps.store.applyBatch(moves));
    phase();
    if (conflicts.size === 0) {
      if (cache.size > CACHE_LIMIT) cache.clear();
      for (const m of moves) cache.set(m.id, { rev: m.to_rev, st: m.st });
      return envelopes.map((e) => answers.get(answerIdOf(e)) ?? NO_FEES);
    }
    // priced from a stale state: put back what moved, forget the answers, price again
    await deps.store.rollBack(
      moves
        .filter((m) => !conflicts.has(m.id))
        .map((m) => ({ id: m.id, rev: m.to_rev, env: m.env, st: before.get(m.id)!.st })),
    );
    await deps.store.deleteAnswers(docs.map((d) => d._id));
    for (const m of moves) cache.delete(m.id);
    if (attempt >= ATTEMPTS)
      throw new RetryLater(`pay-in-advance buckets of ${envelopes.length} envelopes keep moving; retry later`, 500);
  }
}

/** The fees of one envelope's work, moving `states` (in memory) event by event. */
function priceEnvelope(org: string, work: readonly Work[], states: Map<string, BucketRef>): AdvanceFeeData[] {
  const fees: AdvanceFeeData[] = [];
  const seen = new Set<string>();
  const moved = new Map<string, AdvanceBucketState>();
  for (const w of work) {
    const id = advanceFeeId(org, w.key, w.charge.svc_id, w.bucket.index);
    if (seen.has(id)) continue; // the same event twice in an envelope (it is stored once)
    seen.add(id);
    const stored = moved.get(w.bucketId) ?? states.get(w.bucketId)?.st ?? null;
    const periodFrom = w.period.fromIso;
    const current = stored && w.metric.recurring ? carriedIntoPeriod(stored, periodFrom) : stored;
    const usageEvent: UsageEvent = {
      transaction_id: w.event.transaction_id,
      timestamp: w.at,
      properties: w.event.properties ?? {},
    };
    const step = advanceFeeStep({
      charge: {
        charge_model: w.charge.charge_model as ChargeModelName,
        properties: w.bucket.properties,
        prorated: w.charge.prorated,
      },
      metric: pricingMetric(w.metric),
      event: usageEvent,
      state: current,
      currency: w.copy.plan.amount_currency,
      premium: true,
      period: w.period,
    });
    moved.set(w.bucketId, w.metric.recurring ? { ...step.state, period_from: periodFrom } : step.state);
    fees.push(feeOf(org, w, id, step.fee));
  }
  // the envelope's end states (the revision moves when the answer is counted, by the caller)
  for (const [id, st] of moved) states.set(id, { rev: states.get(id)?.rev ?? 0, st });
  return fees;
}

/**
 * What pricing a batch reads of the copies, each once for the batch (the copies are read in one go,
 * so they are the same for all of it): an external id's subscriptions (a read builds them anew),
 * the charges period holding an event per subscription (periods do not overlap: the last one found
 * holding it is its period), the part of the fees alike (their nested values are shared: read,
 * never changed), and the version of each charge priced (its snapshot hashed once per batch).
 */
class BatchReads {
  private readonly byExternalId = new Map<string, SubscriptionCopy[]>();
  private readonly periods = new Map<string, Period>();
  private readonly parts = new Map<string, ChargePart>();
  private readonly versions = new Map<string, { version: string; json: string }>();

  constructor(readonly copies: CatalogCopies) {}

  subscriptionAt(org: string, externalId: string, at: number): SubscriptionCopy | null {
    const key = `${org}|${externalId}`;
    let list = this.byExternalId.get(key);
    if (!list) {
      list = this.copies.subscriptions(org, externalId);
      this.byExternalId.set(key, list);
    }
    return billedAt(list, at);
  }

  periodAt(copy: SubscriptionCopy, at: Date): Period {
    const last = this.periods.get(copy.subscription.svc_id);
    if (last && last.from.getTime() <= at.getTime() && at.getTime() <= last.to.getTime()) return last;
    const p = periodOf(copy, at);
    const period = { ...p, fromIso: p.from.toISOString(), toIso: p.to.toISOString() };
    this.periods.set(copy.subscription.svc_id, period);
    return period;
  }

  partOf(charge: ChargeCopy, metric: Work["metric"], bucket: Work["bucket"], currency: string): ChargePart {
    const id = `${charge.svc_id}|${bucket.index ?? ""}`;
    let part = this.parts.get(id);
    if (!part) {
      const filter = bucket.index === null ? null : charge.filters[bucket.index]!;
      part = {
        filter: filter ? { values: filter.values, invoice_display_name: filter.invoice_display_name ?? null } : null,
        metric: {
          svc_id: metric.svc_id,
          code: metric.code,
          name: metric.name,
          description: metric.description ?? null,
          aggregation_type: metric.aggregation_type,
        },
        properties: bucket.properties as Record<string, unknown>,
        charge_version: this.versionOf(charge, metric, currency),
      };
      this.parts.set(id, part);
    }
    return part;
  }

  /** The version of what the charge is priced with (charge, metric, currency): hashed once per charge for the batch. */
  private versionOf(charge: ChargeCopy, metric: Work["metric"], currency: string): string {
    const id = `${charge.svc_id}|${metric.svc_id}|${currency}`;
    let known = this.versions.get(id);
    if (!known) {
      known = advanceChargeSnapshot(charge, metric, currency);
      this.versions.set(id, known);
    }
    return known.version;
  }

  /** The snapshots of the versions the batch priced with (what the answers name). */
  chargeVersions(): Array<{ _id: string; json: string }> {
    return [...this.versions.values()].map((v) => ({ _id: v.version, json: v.json }));
  }
}

/** Each event × pay-in-advance charge of its metric on the subscription it bills, with its bucket and period. */
function plan(reads: BatchReads, org: string, events: readonly UsageEventData[]): Work[] {
  const work: Work[] = [];
  for (const event of events) {
    const at = new Date(event.timestamp);
    const metric = reads.copies.metricByCode(org, event.code);
    if (!metric || Number.isNaN(at.getTime())) continue;
    const copy = reads.subscriptionAt(org, event.external_subscription_id, at.getTime());
    if (!copy) continue;
    const key = eventKey(org, event.external_subscription_id, event.transaction_id);
    for (const charge of copy.plan.charges) {
      if (!charge.pay_in_advance || charge.svc_billable_metric_id !== metric.svc_id) continue;
      const usageEvent: UsageEvent = { timestamp: at, properties: event.properties ?? {} };
      const bucket = bucketOf(charge, pricingMetric(metric), usageEvent);
      const period = reads.periodAt(copy, at);
      // a recurring metric's bucket lives across periods (its units carry over); others start again each period
      const bucketId = `${org}|${copy.subscription.svc_id}|${charge.svc_id}|${bucket.key}|${metric.recurring ? "recurring" : period.fromIso}`;
      work.push({
        event,
        key,
        at,
        copy,
        charge,
        metric,
        bucketId,
        bucket,
        period,
        part: reads.partOf(charge, metric, bucket, copy.plan.amount_currency),
      });
    }
  }
  return work;
}

function feeOf(org: string, w: Work, id: string, fee: ReturnType<typeof advanceFeeStep>["fee"]): AdvanceFeeData {
  const s = w.copy.subscription;
  const groupedBy: Record<string, string | null> = {};
  for (const k of w.bucket.keys) {
    const v = w.event.properties?.[k];
    groupedBy[k] = v == null ? null : String(v);
  }
  return {
    id,
    organization_id: org,
    event_key: w.key,
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
    filter: w.part.filter,
    metric: w.part.metric,
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
    properties: w.part.properties,
    charge_taxes: w.charge.taxes,
    plan_taxes: w.copy.plan.taxes,
    from: w.period.fromIso,
    to: w.period.toIso,
    timezone: w.period.timeZone,
    charge_version: w.part.charge_version,
  };
}
