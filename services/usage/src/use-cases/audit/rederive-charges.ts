import { computeChargeFees } from "@billing/pricing";
import type { UsageCollections } from "../../persistence/collections";
import { snapshotCharge, snapshotMetric, type ChargeSnapshot } from "./charge-snapshot";
import { rawEventsOfMany, type RawEvent } from "./raw-events";

export interface RederivedFee {
  chargeFilterIndex: number | null;
  groupedBy: Record<string, string | null>;
  trueUp: boolean;
  units: string;
  totalAggregatedUnits: string;
  eventsCount: number;
  amountCents: number;
  preciseAmountCents: string;
  persistable: boolean;
}

export interface RederivedCharge {
  fees: RederivedFee[];
  eventsRead: number;
  lateEventsCount: number;
  /** the first `lateLimit` late events, oldest acknowledged first */
  lateEvents: RawEvent[];
}

export interface RederiveInput {
  organizationId: string;
  externalSubscriptionId: string;
  snapshots: readonly ChargeSnapshot[];
  /**
   * for snapshots without `read_through_seq` (priced by a read that was not consistent, or before
   * sequences were kept): events acknowledged (created_at, business time) after it are late
   */
  billedThrough: Date | null;
  lateLimit: number;
}

/**
 * Each charge snapshot's fees re-derived from the RAW events stored for its period: the events
 * themselves, read from the buckets' pages (never the buckets' partials), split into those the
 * fee's read could see (ingest messages up to the snapshot's `read_through_seq`; without it, events
 * acknowledged by `billedThrough`) — priced — and the later ones (late: listed, not priced), and
 * priced by the pricing library from the snapshot alone (the catalog's current state plays no
 * part). One read of all the snapshots' pages.
 * Reads: `rawEventsOfMany` (indexed `_id` reads, on real MongoDB and the test server alike).
 */
export async function rederiveCharges(
  deps: { collections: UsageCollections },
  input: RederiveInput,
): Promise<RederivedCharge[]> {
  const eventLists = await rawEventsOfMany(
    deps.collections,
    input.snapshots.map((s) => ({
      organizationId: input.organizationId,
      externalSubscriptionId: input.externalSubscriptionId,
      code: s.metric.code,
      from: new Date(s.events_from),
      to: new Date(Date.parse(s.to) + 1),
    })),
  );
  const cutoff = input.billedThrough?.getTime() ?? Infinity;
  return input.snapshots.map((snapshot, i) => {
    const events = eventLists[i]!;
    // exact: the ingest messages storage was complete through when the fee read its events; else by business time
    const seqCut = snapshot.read_through_seq;
    const isLate = seqCut !== undefined ? (e: RawEvent) => e.seq > seqCut : (e: RawEvent) => e.created > cutoff;
    // most often nothing is late: the events are priced as read, without a copy of a million of them
    const anyLate = events.some(isLate);
    const billed: RawEvent[] = anyLate ? events.filter((e) => !isLate(e)) : events;
    const late: RawEvent[] = anyLate ? events.filter(isLate) : [];
    const priced = computeChargeFees({
      charge: snapshotCharge(snapshot),
      metric: snapshotMetric(snapshot),
      events: billed,
      currency: snapshot.currency,
      period: {
        from: new Date(snapshot.from),
        to: new Date(snapshot.to),
        periodDays: snapshot.period_days,
        billedDays: snapshot.billed_days ?? undefined,
        timeZone: snapshot.time_zone,
      },
      premium: true,
    });
    const fees: RederivedFee[] = priced.fees.map((f) => ({
      chargeFilterIndex: f.charge_filter_index,
      groupedBy: f.grouped_by as Record<string, string | null>,
      trueUp: false,
      units: f.units,
      totalAggregatedUnits: f.total_aggregated_units,
      eventsCount: f.events_count,
      amountCents: f.amount_cents,
      preciseAmountCents: f.precise_amount_cents,
      persistable: f.persistable,
    }));
    const t = priced.true_up_fee;
    if (t) {
      fees.push({
        chargeFilterIndex: null,
        groupedBy: {},
        trueUp: true,
        units: t.units,
        totalAggregatedUnits: t.total_aggregated_units,
        eventsCount: 0,
        amountCents: t.amount_cents,
        preciseAmountCents: t.precise_amount_cents,
        persistable: true,
      });
    }
    late.sort((a, b) => a.created - b.created || a.timestamp - b.timestamp);
    return {
      fees,
      eventsRead: events.length,
      lateEventsCount: late.length,
      lateEvents: late.slice(0, input.lateLimit),
    };
  });
}
