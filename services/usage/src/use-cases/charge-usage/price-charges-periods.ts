import {
  computeChargeFees,
  computeChargeFeesFromUnits,
  pricedFromUnits,
  type AmountDetails,
  type BillableMetric,
  type MetricFilter,
} from "@billing/pricing";
import type { CatalogCopies, ChargeCopy, MetricCopy, SubscriptionCopy } from "../../domain/read-copies";
import type { PeriodQuery, UsageEventRecord } from "../../domain/usage-event";
import type { FastUnits } from "../aggregate/fast-path";
import type { StoredUsageReader } from "../aggregate/usage-reader";
import { chargeSnapshot, pricingCharge, type ChargeSnapshot } from "../audit/charge-snapshot";

export interface ChargesPeriodQuery {
  organizationId: string;
  subscriptionId: string;
  externalSubscriptionId: string;
  from: Date;
  to: Date;
  periodDays: number;
  billedDays?: number;
  includePayInAdvance: boolean;
}

/** One fee of a charge's period, as the pricing library computed it, with what it was priced from. */
export interface PricedChargeFee {
  charge: ChargeCopy;
  metric: MetricCopy;
  chargeFilterIndex: number | null;
  groupedBy: Record<string, string | null>;
  trueUp: boolean;
  units: string;
  totalAggregatedUnits: string;
  eventsCount: number;
  amountCents: number;
  preciseAmountCents: string;
  unitAmountCents: number;
  preciseUnitAmount: string;
  amountDetails: AmountDetails;
  properties: Record<string, unknown>;
  persistable: boolean;
  /** what it was priced from, kept on the invoiced fee for audits (`../audit/charge-snapshot.ts`) */
  snapshot: ChargeSnapshot;
}

export interface PricedPeriod {
  found: boolean;
  fees: PricedChargeFee[];
}

export interface ChargeUsageDeps {
  copies: CatalogCopies;
  usage: StoredUsageReader;
}

/** The metric copy as the pricing library reads it (its aggregation names are the catalog's). */
const pricingMetric = (m: MetricCopy) => m as unknown as BillableMetric & { filters: MetricFilter[] };

function subscriptionCopy(copies: CatalogCopies, q: ChargesPeriodQuery): SubscriptionCopy | null {
  return (
    copies
      .subscriptions(q.organizationId, q.externalSubscriptionId)
      .find((c) => c.subscription.svc_id === q.subscriptionId) ?? null
  );
}

/** The earliest start of the subscriptions of the period's external id (its upgrades' predecessors included). */
function firstStart(copies: CatalogCopies, q: ChargesPeriodQuery, copy: SubscriptionCopy): Date {
  const starts = copies
    .subscriptions(q.organizationId, q.externalSubscriptionId)
    .map((c) => c.subscription.started_at)
    .filter((at): at is string => !!at)
    .map((at) => Date.parse(at));
  const own = Date.parse(copy.subscription.started_at ?? q.from.toISOString());
  return new Date(Math.min(own, ...starts));
}

/** One charge of one period to price, and the stored usage it reads: its units alone (`fromUnits`), or its events. */
interface ChargeRead {
  period: number;
  charge: ChargeCopy;
  metric: MetricCopy;
  query: PeriodQuery;
  fromUnits: boolean;
}

/**
 * The charge fees of many subscriptions' charges periods, from their stored usage and the plans
 * they are billed on (this service's read copies): per charge, every filter bucket, the default
 * bucket and each pricing group, then the spending-minimum true-up. A charge whose fees depend on
 * its events only through their units (the pricing library's pricedFromUnits: a count, sum or max
 * in arrears without filters or groups, priced by units) reads the hourly buckets' partials
 * instead of every event; the others read their events. Every charge of every period is read
 * together (a billing batch costs a few reads, not a few per charge). Money comes from the
 * pricing library only; an invoice's audit re-derives it from the raw events.
 */
export async function priceChargesPeriods(
  deps: ChargeUsageDeps,
  queries: readonly ChargesPeriodQuery[],
): Promise<PricedPeriod[]> {
  const copies = queries.map((q) => subscriptionCopy(deps.copies, q));
  const reads: ChargeRead[] = [];
  queries.forEach((q, period) => {
    const copy = copies[period];
    if (!copy) return;
    for (const charge of copy.plan.charges) {
      if (charge.pay_in_advance && !q.includePayInAdvance) continue;
      const metric = deps.copies.metricByCode(q.organizationId, charge.billable_metric_code);
      if (!metric) continue;
      // pay-in-advance charges are billed per event; on a periodic invoice only a recurring metric's
      // carried-over units are (billed for the period that starts: recurringInAdvance below)
      if (charge.pay_in_advance && !metric.recurring) continue;
      // recurring metrics carry their usage over from the external id's first start (Lago reads a
      // recurring metric's events by external subscription id: an upgrade keeps the units)
      const from = metric.recurring ? firstStart(deps.copies, q, copy) : q.from;
      const query = {
        organizationId: q.organizationId,
        externalSubscriptionId: q.externalSubscriptionId,
        code: metric.code,
        from,
        to: new Date(q.to.getTime() + 1),
      };
      reads.push({
        period,
        charge,
        metric,
        query,
        fromUnits: pricedFromUnits(pricingCharge(recurringInAdvance(charge)), pricingMetric(metric)),
      });
    }
  });
  const unitReads = reads.filter((r) => r.fromUnits);
  const eventReads = reads.filter((r) => !r.fromUnits);
  const [units, events] = await Promise.all([
    unitReads.length
      ? deps.usage.unitsOfMany(unitReads.map((r) => ({ ...r.query, metric: pricingMetric(r.metric) })))
      : [],
    eventReads.length ? deps.usage.eventsOfMany(eventReads.map((r) => r.query)) : [],
  ]);
  const usageOf = new Map<ChargeRead, { units: FastUnits } | { events: UsageEventRecord[] }>([
    ...unitReads.map((r, i) => [r, { units: units[i]! }] as const),
    ...eventReads.map((r, i) => [r, { events: events[i]! }] as const),
  ]);
  const priced: PricedPeriod[] = copies.map((copy) => ({ found: !!copy, fees: [] }));
  for (const read of reads) {
    const q = queries[read.period]!;
    priced[read.period]!.fees.push(...chargeFees(read, usageOf.get(read)!, q, copies[read.period]!));
  }
  return priced;
}

export async function priceChargesPeriod(deps: ChargeUsageDeps, q: ChargesPeriodQuery): Promise<PricedPeriod> {
  return (await priceChargesPeriods(deps, [q]))[0]!;
}

/**
 * A pay-in-advance charge on a recurring metric, priced on a billing day (Lago: "pay in advance on
 * billing date: always the full amount"): the units standing at the end of the period that ended,
 * unprorated, for the period that starts. The snapshot records it unprorated so an audit prices it alike.
 */
const recurringInAdvance = (charge: ChargeCopy): ChargeCopy =>
  charge.pay_in_advance ? { ...charge, prorated: false } : charge;

function chargeFees(
  read: ChargeRead,
  usage: { units: FastUnits } | { events: UsageEventRecord[] },
  q: ChargesPeriodQuery,
  { plan, subscription }: SubscriptionCopy,
): PricedChargeFee[] {
  const { metric, query } = read;
  const charge = recurringInAdvance(read.charge);
  const fees: PricedChargeFee[] = [];
  const snapshot = chargeSnapshot({
    charge,
    metric,
    currency: plan.amount_currency,
    query: q,
    eventsFrom: query.from,
    timeZone: subscription.timezone,
  });
  const input = {
    charge: pricingCharge(charge),
    metric: pricingMetric(metric),
    currency: plan.amount_currency,
    period: {
      from: q.from,
      to: q.to,
      periodDays: q.periodDays,
      billedDays: q.billedDays,
      timeZone: subscription.timezone,
    },
    premium: true,
  };
  const priced =
    "units" in usage
      ? computeChargeFeesFromUnits({ ...input, units: usage.units.units, eventsCount: usage.units.eventsCount })
      : computeChargeFees({ ...input, events: usage.events });
  for (const fee of priced.fees) {
    const filter = fee.charge_filter_index === null ? null : charge.filters[fee.charge_filter_index]!;
    fees.push({
      charge,
      metric,
      chargeFilterIndex: fee.charge_filter_index,
      groupedBy: fee.grouped_by as Record<string, string | null>,
      trueUp: false,
      units: fee.units,
      totalAggregatedUnits: fee.total_aggregated_units,
      eventsCount: fee.events_count,
      amountCents: fee.amount_cents,
      preciseAmountCents: fee.precise_amount_cents,
      unitAmountCents: fee.unit_amount_cents,
      preciseUnitAmount: fee.precise_unit_amount,
      amountDetails: fee.amount_details,
      properties: filter ? filter.properties : charge.properties,
      persistable: fee.persistable,
      snapshot,
    });
  }
  if (priced.true_up_fee) {
    const t = priced.true_up_fee;
    fees.push({
      charge,
      metric,
      chargeFilterIndex: null,
      groupedBy: {},
      trueUp: true,
      units: t.units,
      totalAggregatedUnits: t.total_aggregated_units,
      eventsCount: 0,
      amountCents: t.amount_cents,
      preciseAmountCents: t.precise_amount_cents,
      unitAmountCents: t.unit_amount_cents,
      preciseUnitAmount: t.precise_unit_amount,
      amountDetails: {},
      properties: charge.properties,
      persistable: true,
      snapshot,
    });
  }
  return fees;
}
