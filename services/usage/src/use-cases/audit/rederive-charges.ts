import { computeChargeFees } from "@billing/pricing";
import type { UsageEventRecord } from "../../domain/usage-event";
import type { StoredUsageReader } from "../aggregate/usage-reader";
import { snapshotCharge, snapshotMetric, type ChargeSnapshot } from "./charge-snapshot";

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
  lateEvents: UsageEventRecord[];
}

export interface RederiveInput {
  organizationId: string;
  externalSubscriptionId: string;
  snapshots: readonly ChargeSnapshot[];
  /** events acknowledged (created_at) after it were not there when the fees were priced: late, not priced */
  billedThrough: Date | null;
  lateLimit: number;
}

/**
 * Each charge snapshot's fees re-derived from the RAW events stored for its period: the events
 * themselves, read from the buckets' pages (never the buckets' partials), split into those
 * acknowledged by `billedThrough` (priced) and those after it (late: listed, not priced), and
 * priced by the pricing library from the snapshot alone (the catalog's current state plays no
 * part). One read of all the snapshots' pages.
 *
 * Reads (`storedUsageReader`): the series' month documents, then the hourly buckets, then their
 * pages, each by `_id $in` of ids computed from (organization, subscription, code, hour): indexed
 * on real MongoDB AND on the test server (its only index is `_id` equality). On real MongoDB the
 * pages of a period could equally be read as one `_id` range (their ids start with the bucket id,
 * whose hours sort in time order); the test server would scan the collection for that, so we ask
 * for the ids.
 */
export async function rederiveCharges(deps: { usage: StoredUsageReader }, input: RederiveInput): Promise<RederivedCharge[]> {
  const eventLists = await deps.usage.eventsOfMany(input.snapshots.map((s) => ({
    organizationId: input.organizationId, externalSubscriptionId: input.externalSubscriptionId, code: s.metric.code,
    from: new Date(s.events_from), to: new Date(Date.parse(s.to) + 1),
  })));
  const cutoff = input.billedThrough?.getTime() ?? Infinity;
  return input.snapshots.map((snapshot, i) => {
    const events = eventLists[i]!;
    const billed: UsageEventRecord[] = [];
    const late: UsageEventRecord[] = [];
    for (const e of events) (e.created_at.getTime() > cutoff ? late : billed).push(e);
    const priced = computeChargeFees({
      charge: snapshotCharge(snapshot),
      metric: snapshotMetric(snapshot),
      events: billed,
      currency: snapshot.currency,
      period: {
        from: new Date(snapshot.from), to: new Date(snapshot.to), periodDays: snapshot.period_days,
        billedDays: snapshot.billed_days ?? undefined, timeZone: snapshot.time_zone,
      },
      premium: true,
    });
    const fees: RederivedFee[] = priced.fees.map((f) => ({
      chargeFilterIndex: f.charge_filter_index, groupedBy: f.grouped_by as Record<string, string | null>, trueUp: false,
      units: f.units, totalAggregatedUnits: f.total_aggregated_units, eventsCount: f.events_count,
      amountCents: f.amount_cents, preciseAmountCents: f.precise_amount_cents, persistable: f.persistable,
    }));
    const t = priced.true_up_fee;
    if (t) {
      fees.push({
        chargeFilterIndex: null, groupedBy: {}, trueUp: true, units: t.units, totalAggregatedUnits: t.total_aggregated_units, eventsCount: 0,
        amountCents: t.amount_cents, preciseAmountCents: t.precise_amount_cents, persistable: true,
      });
    }
    late.sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || a.timestamp.getTime() - b.timestamp.getTime());
    return { fees, eventsRead: events.length, lateEventsCount: late.length, lateEvents: late.slice(0, input.lateLimit) };
  });
}
