import { sumCents } from "@billing/pricing";
import {
  chargeFilterToProto,
  chargePropertiesToProto,
  storedChargeSnapshot,
  type ChargeViewData,
  type PlanViewData,
  type StoredChargeSnapshot,
  type UsageMessages,
} from "@billing/contracts";
import type { ChargeFee } from "./invoice-fees";
import type { FeeDraft, Invoice, InvoiceLine } from "./invoice";
import type { RederivedChargeData } from "./invoice-audit";

/**
 * POST /customers/{id}/simulate_plan, the pure part: a plan's charge as a snapshot the usage
 * service prices from the raw events (its metric as it is now), its answer as the fees invoicing
 * composes, and each period's simulated fees beside what was billed.
 */

/** The snapshot of one of the simulated plan's charges over a charges span (no metric: the usage service's current one). */
export function simulatedSnapshot(
  charge: ChargeViewData,
  plan: PlanViewData,
  span: { from: Date; to: Date; periodDays: number; billedDays?: number | null },
  timeZone: string,
  readThroughSeq?: number,
): UsageMessages.ChargeSnapshot {
  return {
    v: 1,
    charge: {
      svc_id: charge.svc_id,
      billable_metric_code: charge.billable_metric_code,
      charge_model: charge.charge_model,
      pay_in_advance: charge.pay_in_advance,
      prorated: charge.prorated,
      min_amount_cents: charge.min_amount_cents,
      properties: chargePropertiesToProto(charge.properties),
      filters: charge.filters.map(chargeFilterToProto),
    },
    currency: plan.amount_currency,
    from: span.from.toISOString(),
    to: span.to.toISOString(),
    events_from: span.from.toISOString(),
    period_days: span.periodDays,
    billed_days: span.billedDays ?? undefined,
    time_zone: timeZone,
    read_through_seq: readThroughSeq,
  };
}

/** The ingest sequence a billed fee's usage read was complete through, from its stored snapshot (the same events for a simulation). */
export const readThroughSeqOf = (snapshot: StoredChargeSnapshot | undefined): number | undefined =>
  storedChargeSnapshot(snapshot)?.readThroughSeq;

/** The usage service's re-derived fees of a charge, as ChargeUsage would have answered them (what `invoiceFees` composes). */
export function chargeFeesOf(charge: ChargeViewData, rederived: RederivedChargeData): ChargeFee[] {
  return rederived.fees.map(
    (f) =>
      ({
        charge_id: charge.svc_id,
        billable_metric_id: charge.svc_billable_metric_id,
        billable_metric_code: charge.billable_metric_code,
        charge_model: charge.charge_model,
        ...(f.charge_filter_index !== null ? { charge_filter_index: f.charge_filter_index } : {}),
        grouped_by: Object.fromEntries(Object.entries(f.grouped_by).map(([k, v]) => [k, v ?? ""])),
        true_up: f.true_up,
        units: f.units,
        total_aggregated_units: f.units,
        events_count: f.events_count,
        amount_cents: f.amount_cents,
        precise_amount_cents: f.precise_amount_cents,
        unit_amount_cents: 0,
        precise_unit_amount: "0",
        amount_details: null,
        properties: null,
        persistable: f.persistable,
        pay_in_advance: charge.pay_in_advance,
        invoiceable: charge.invoiceable,
        billable_metric_name: charge.billable_metric_code,
        aggregation_type: "",
        charge_snapshot: null,
      }) satisfies ChargeFee,
  );
}

export interface SimulatedFee {
  fee_type: string;
  code: string;
  charge_filter_index: number | null;
  grouped_by: Record<string, string>;
  units: string;
  events_count: number | null;
  amount_cents: number;
}

export interface SimulatedPeriod {
  svc_invoice_id: string;
  invoice_number: string;
  issuing_date: string;
  external_subscription_id: string;
  invoicing_reason: string;
  billed_plan_code: string;
  from_datetime: string | null;
  to_datetime: string | null;
  billed_fees_amount_cents: number;
  simulated_fees_amount_cents: number;
  difference_amount_cents: number;
  simulated_fees: SimulatedFee[];
}

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

/** One invoice line billed on its plan beside the same line's fees on the simulated plan. */
export function simulatedPeriod(invoice: Invoice, line: InvoiceLine, drafts: readonly FeeDraft[]): SimulatedPeriod {
  const billed = sumCents(
    invoice.fees.filter((f) => f.subscription_id === line.subscription_id).map((f) => f.amount_cents),
  );
  const simulated = sumCents(drafts.map((f) => f.amount_cents));
  return {
    svc_invoice_id: invoice.id,
    invoice_number: invoice.number,
    issuing_date: invoice.issuing_date,
    external_subscription_id: line.external_subscription_id,
    invoicing_reason: line.invoicing_reason,
    billed_plan_code: line.plan_code,
    from_datetime: iso(line.subscription_from ?? line.charges_from),
    to_datetime: iso(line.subscription_to ?? line.charges_to),
    billed_fees_amount_cents: billed,
    simulated_fees_amount_cents: simulated,
    difference_amount_cents: sumCents([simulated, -billed]),
    simulated_fees: drafts.map((f) => ({
      fee_type: f.fee_type,
      code: f.item.code,
      charge_filter_index: f.charge_filter_index,
      grouped_by: f.item.grouped_by ?? {},
      units: f.units,
      events_count: f.events_count,
      amount_cents: f.amount_cents,
    })),
  };
}

export interface PlanSimulationView {
  external_customer_id: string;
  plan_code: string;
  currency: string;
  from: string | null;
  to: string | null;
  billed_fees_amount_cents: number;
  simulated_fees_amount_cents: number;
  difference_amount_cents: number;
  periods: SimulatedPeriod[];
}

export function simulationView(
  input: { externalCustomerId: string; plan: PlanViewData; from: Date | null; to: Date | null },
  periods: SimulatedPeriod[],
): PlanSimulationView {
  const billed = sumCents(periods.map((p) => p.billed_fees_amount_cents));
  const simulated = sumCents(periods.map((p) => p.simulated_fees_amount_cents));
  return {
    external_customer_id: input.externalCustomerId,
    plan_code: input.plan.code,
    currency: input.plan.amount_currency,
    from: iso(input.from),
    to: iso(input.to),
    billed_fees_amount_cents: billed,
    simulated_fees_amount_cents: simulated,
    difference_amount_cents: sumCents([simulated, -billed]),
    periods,
  };
}
