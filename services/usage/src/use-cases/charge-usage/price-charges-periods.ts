import { computeChargeFees, type BillableMetric, type ChargeModelName, type MetricFilter, type UsageCharge } from "@billing/pricing";
import type { CatalogCopies, ChargeCopy, MetricCopy, SubscriptionCopy } from "../../domain/read-copies";
import type { UsageReader } from "../../domain/usage-event";

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
  amountDetails: unknown;
  properties: Record<string, unknown>;
  persistable: boolean;
}

export interface PricedPeriod {
  found: boolean;
  fees: PricedChargeFee[];
}

export interface ChargeUsageDeps {
  copies: CatalogCopies;
  usage: UsageReader;
}

/** The metric copy as the pricing library reads it (its aggregation names are the catalog's). */
const pricingMetric = (m: MetricCopy) => m as unknown as BillableMetric & { filters: MetricFilter[] };

function subscriptionCopy(copies: CatalogCopies, q: ChargesPeriodQuery): SubscriptionCopy | null {
  return copies.subscriptions(q.organizationId, q.externalSubscriptionId).find((c) => c.subscription.svc_id === q.subscriptionId) ?? null;
}

/**
 * The charge fees of one subscription's charges period, from its stored events and the plan it is
 * billed on (this service's read copies): per charge, every filter bucket, the default bucket and
 * each pricing group, then the spending-minimum true-up. Money comes from the pricing library only.
 */
export async function priceChargesPeriod(deps: ChargeUsageDeps, q: ChargesPeriodQuery): Promise<PricedPeriod> {
  const copy = subscriptionCopy(deps.copies, q);
  if (!copy) return { found: false, fees: [] };
  const { plan, subscription } = copy;
  const currency = plan.amount_currency;
  const fees: PricedChargeFee[] = [];
  for (const charge of plan.charges) {
    if (charge.pay_in_advance && !q.includePayInAdvance) continue;
    const metric = deps.copies.metricByCode(q.organizationId, charge.billable_metric_code);
    if (!metric) continue;
    // recurring metrics carry their usage over from the subscription's start
    const from = metric.recurring ? new Date(subscription.started_at ?? q.from) : q.from;
    const events = await deps.usage.events({
      organizationId: q.organizationId, externalSubscriptionId: q.externalSubscriptionId, code: metric.code, from, to: new Date(q.to.getTime() + 1),
    });
    const usageCharge: UsageCharge = {
      charge_model: charge.charge_model as ChargeModelName,
      properties: charge.properties,
      prorated: charge.prorated,
      pay_in_advance: charge.pay_in_advance,
      min_amount_cents: charge.min_amount_cents,
      filters: charge.filters.map((f) => ({ properties: f.properties, values: f.values })),
    };
    const priced = computeChargeFees({
      charge: usageCharge,
      metric: pricingMetric(metric),
      events,
      currency,
      period: { from: q.from, to: q.to, periodDays: q.periodDays, billedDays: q.billedDays, timeZone: subscription.timezone },
      premium: true,
    });
    for (const fee of priced.fees) {
      const filter = fee.charge_filter_index === null ? null : charge.filters[fee.charge_filter_index]!;
      fees.push({
        charge, metric, chargeFilterIndex: fee.charge_filter_index, groupedBy: fee.grouped_by as Record<string, string | null>, trueUp: false,
        units: fee.units, totalAggregatedUnits: fee.total_aggregated_units, eventsCount: fee.events_count,
        amountCents: fee.amount_cents, preciseAmountCents: fee.precise_amount_cents, unitAmountCents: fee.unit_amount_cents,
        preciseUnitAmount: fee.precise_unit_amount, amountDetails: fee.amount_details,
        properties: filter ? filter.properties : charge.properties, persistable: fee.persistable,
      });
    }
    if (priced.true_up_fee) {
      const t = priced.true_up_fee;
      fees.push({
        charge, metric, chargeFilterIndex: null, groupedBy: {}, trueUp: true, units: t.units, totalAggregatedUnits: t.total_aggregated_units,
        eventsCount: 0, amountCents: t.amount_cents, preciseAmountCents: t.precise_amount_cents, unitAmountCents: t.unit_amount_cents,
        preciseUnitAmount: t.precise_unit_amount, amountDetails: {}, properties: charge.properties, persistable: true,
      });
    }
  }
  return { found: true, fees };
}
