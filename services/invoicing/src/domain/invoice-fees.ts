import { derivedUuid } from "@billing/codes";
import {
  amountDetailsFromProto,
  chargePropertiesFromProto,
  type CustomerViewData,
  type TaxViewData,
  type UsageMessages,
} from "@billing/contracts";
import {
  computeCommitmentTrueUp,
  computeFixedChargeFee,
  decimalString,
  fromCents,
  type BillingPeriod,
  type FixedChargeDefinition,
  type SubscriptionInvoicePeriods,
} from "@billing/pricing";
import type { SubscriptionCopy } from "./copies";
import type { FeeDraft, FeeItem, InvoiceLine } from "./invoice";

export type ChargeFee = UsageMessages.ChargeFee__Output;

/** One subscription billed on an invoice: its copy, its line, the spans and base fee pricing gave, and its usage. */
export interface PricedLine {
  copy: SubscriptionCopy;
  line: InvoiceLine;
  periods: SubscriptionInvoicePeriods;
  /** the usage service's charge fees for `periods.charges` (empty when it bills no usage) */
  chargeFees: ChargeFee[];
  /** the subscription's fees on earlier invoices (a minimum commitment is measured over the whole plan period) */
  priorFees?: ReadonlyArray<Pick<FeeDraft, "amount_cents" | "precise_amount_cents" | "from" | "to">>;
  /** when the usage of `chargeFees` was read (business time; kept on the fees for audits) */
  usageReadAt?: Date;
}

export interface FeeContext {
  invoiceId: string;
  customer: CustomerViewData;
  /** the billing entity's default taxes */
  entityTaxes: readonly TaxViewData[];
  currency: string;
}

/**
 * Which taxes a fee carries (billing-rules §3): its own (charge, fixed charge, commitment) if any,
 * else the plan's, else the customer's, else the billing entity's defaults.
 */
export function selectTaxes(...candidates: ReadonlyArray<readonly TaxViewData[]>): TaxViewData[] {
  return [...(candidates.find((taxes) => taxes.length > 0) ?? [])];
}

/**
 * The fees of an invoice's lines, in Lago's order per subscription: the base fee, then each
 * charge's fees (per filter, default bucket, group, then the charge's min_amount true-up), as
 * priced by the pricing library (base fee) and the usage service (charges). Ids are derived from
 * the invoice and what the fee bills, so a refreshed draft keeps them. Pure.
 */
export function invoiceFees(ctx: FeeContext, lines: readonly PricedLine[]): FeeDraft[] {
  return lines.flatMap((priced) => {
    const fees = [
      ...subscriptionFee(ctx, priced),
      ...chargeFees(ctx, priced, false).filter((f) => !waitsForPayment(f)),
      ...fixedChargeFees(ctx, priced),
    ];
    return [...fees, ...commitmentFee(ctx, priced, fees)];
  });
}

/** A not-invoiceable pay-in-advance fee: never on a periodic invoice, it waits for its payment (advance-charges.ts). */
const waitsForPayment = (f: Pick<FeeDraft, "pay_in_advance" | "invoiceable">) => f.pay_in_advance && !f.invoiceable;

/**
 * The fees a periodic billing creates WITHOUT an invoice (Lago's recurring non-invoiceable fees):
 * a not-invoiceable pay-in-advance charge on a recurring metric, its carried-over units billed for
 * the period that starts, each fee kept even at zero. Ids derived from `ctx.invoiceId`. Pure.
 */
export function waitingRecurringFees(ctx: FeeContext, priced: PricedLine): FeeDraft[] {
  return chargeFees(ctx, priced, true).filter((f) => waitsForPayment(f) && !f.true_up);
}

/** Every charge fee of a usage period, those an invoice would not keep included (current usage lists every charge). */
export function usageFees(ctx: FeeContext, priced: PricedLine): FeeDraft[] {
  return chargeFees(ctx, priced, true).filter((f) => !f.true_up);
}

function subscriptionFee(ctx: FeeContext, { copy, line, periods }: PricedLine): FeeDraft[] {
  const sub = periods.subscription;
  if (!sub) return [];
  const { plan, subscription: s } = copy;
  const money = decimalString(fromCents(sub.fee.amount_cents, ctx.currency));
  return [
    {
      id: derivedUuid(`${ctx.invoiceId}|fee|${line.subscription_id}|${line.reason}|subscription`),
      fee_type: "subscription",
      subscription_id: s.svc_id,
      external_subscription_id: s.external_id,
      plan_code: plan.code,
      charge_id: null,
      charge_filter_index: null,
      fixed_charge_id: null,
      billable_metric_code: null,
      charge_model: null,
      aggregation_type: null,
      true_up_parent_fee_id: null,
      true_up: false,
      item: {
        code: plan.code,
        name: plan.name,
        description: plan.description,
        invoice_display_name: s.name ?? plan.invoice_display_name ?? plan.name,
        filter_invoice_display_name: null,
        filters: null,
        item_id: s.svc_id,
        item_type: "Subscription",
        grouped_by: {},
      },
      units: sub.fee.units,
      total_aggregated_units: sub.fee.units,
      events_count: null,
      precise_unit_amount: money,
      amount_cents: sub.fee.amount_cents,
      precise_amount_cents: sub.fee.precise_amount_cents,
      pay_in_advance: plan.pay_in_advance,
      invoiceable: true,
      from: sub.period.from_datetime,
      to: sub.period.to_datetime,
      amount_details: { ...sub.fee.amount_details },
      properties: { amount_cents: plan.amount_cents, days: sub.fee.days, period_days: sub.period.period_days },
      taxes: selectTaxes(plan.taxes, ctx.customer.taxes, ctx.entityTaxes),
      description: plan.description,
    },
  ];
}

function chargeFees(
  ctx: FeeContext,
  { copy, line, periods, chargeFees: fees, usageReadAt }: PricedLine,
  keepEmpty: boolean,
): FeeDraft[] {
  const span = periods.charges;
  if (!span) return [];
  const { plan, subscription: s } = copy;
  const drafts: FeeDraft[] = [];
  for (const f of fees) {
    if (!f.persistable && !keepEmpty) continue;
    const charge = plan.charges.find((c) => c.svc_id === f.charge_id);
    if (!charge) continue;
    const index = f.charge_filter_index ?? null;
    const filter = index === null ? null : (charge.filters[index] ?? null);
    const grouped = f.grouped_by;
    const metricName = f.billable_metric_name || f.billable_metric_code;
    const key = `${line.subscription_id}|${line.reason}|charge|${f.charge_id}|${index ?? "-"}|${JSON.stringify(grouped)}|${f.true_up ? "true_up" : "fee"}`;
    const item: FeeItem = {
      code: f.billable_metric_code,
      name: metricName,
      description: null,
      invoice_display_name: `${charge.invoice_display_name ?? metricName}${f.true_up ? " - true-up" : ""}`,
      filter_invoice_display_name: filter?.invoice_display_name ?? null,
      filters: filter ? filter.values : null,
      item_id: f.billable_metric_id,
      item_type: "BillableMetric",
      grouped_by: grouped,
    };
    drafts.push({
      id: derivedUuid(`${ctx.invoiceId}|fee|${key}`),
      fee_type: "charge",
      subscription_id: s.svc_id,
      external_subscription_id: s.external_id,
      plan_code: plan.code,
      charge_id: f.charge_id,
      charge_filter_index: index,
      fixed_charge_id: null,
      billable_metric_code: f.billable_metric_code,
      charge_model: f.charge_model,
      aggregation_type: f.aggregation_type,
      true_up: f.true_up,
      true_up_parent_fee_id: f.true_up
        ? (drafts.find((d) => d.charge_id === f.charge_id && d.subscription_id === s.svc_id)?.id ?? null)
        : null,
      item,
      units: f.units,
      total_aggregated_units: f.total_aggregated_units,
      events_count: Number(f.events_count),
      precise_unit_amount: f.precise_unit_amount,
      amount_cents: Number(f.amount_cents),
      precise_amount_cents: f.precise_amount_cents,
      pay_in_advance: f.pay_in_advance,
      invoiceable: f.invoiceable,
      // a recurring metric's pay-in-advance units are billed for the period that starts, and shown over it
      from: (f.pay_in_advance && periods.charges_in_advance ? periods.charges_in_advance : span).from_datetime,
      to: (f.pay_in_advance && periods.charges_in_advance ? periods.charges_in_advance : span).to_datetime,
      amount_details: amountDetailsFromProto(f.amount_details),
      properties: chargePropertiesFromProto(f.properties),
      taxes: selectTaxes(charge.taxes, plan.taxes, ctx.customer.taxes, ctx.entityTaxes),
      description: null,
      ...(f.charge_snapshot ? { charge_snapshot: f.charge_snapshot, usage_read_at: usageReadAt ?? null } : {}),
    });
  }
  return drafts;
}

/**
 * The plan's fixed charges (billing-rules §3 step 1): arrears ones over the span that ended,
 * pay-in-advance ones over the span that starts, each priced by the pricing library on its units
 * (prorated when the charge is).
 */
function fixedChargeFees(ctx: FeeContext, { copy, line, periods }: PricedLine): FeeDraft[] {
  const { plan, subscription: s } = copy;
  const spans: Array<[BillingPeriod | null, boolean]> = [
    [periods.fixed_charges, false],
    [periods.fixed_charges_in_advance, true],
  ];
  return spans.flatMap(([span, inAdvance]) => {
    if (!span) return [];
    return plan.fixed_charges
      .filter((fc) => fc.pay_in_advance === inAdvance)
      .flatMap((fc): FeeDraft[] => {
        const definition: FixedChargeDefinition = {
          charge_model: fc.charge_model as FixedChargeDefinition["charge_model"],
          properties: fc.properties,
          prorated: fc.prorated,
          pay_in_advance: fc.pay_in_advance,
        };
        const fee = computeFixedChargeFee({
          fixed_charge: definition,
          units: fc.units,
          currency: ctx.currency,
          period: {
            from: span.from_datetime,
            to: span.to_datetime,
            periodDays: span.period_days,
            timeZone: s.timezone,
          },
        });
        if (!fee.persistable) return [];
        const name = fc.invoice_display_name ?? fc.add_on_name ?? fc.add_on_code;
        return [
          {
            id: derivedUuid(
              `${ctx.invoiceId}|fee|${line.subscription_id}|${line.reason}|fixed_charge|${fc.svc_id}|${inAdvance ? "advance" : "arrears"}`,
            ),
            fee_type: "fixed_charge",
            subscription_id: s.svc_id,
            external_subscription_id: s.external_id,
            plan_code: plan.code,
            charge_id: null,
            charge_filter_index: null,
            fixed_charge_id: fc.svc_id,
            billable_metric_code: null,
            charge_model: fc.charge_model,
            aggregation_type: null,
            true_up_parent_fee_id: null,
            true_up: false,
            item: {
              code: fc.code ?? fc.add_on_code,
              name,
              description: null,
              invoice_display_name: name,
              filter_invoice_display_name: null,
              filters: null,
              item_id: fc.svc_add_on_id,
              item_type: "AddOn",
              grouped_by: {},
            },
            units: fee.units,
            total_aggregated_units: fee.total_aggregated_units,
            events_count: null,
            precise_unit_amount: fee.precise_unit_amount,
            amount_cents: fee.amount_cents,
            precise_amount_cents: fee.precise_amount_cents,
            pay_in_advance: fc.pay_in_advance,
            invoiceable: true,
            from: span.from_datetime,
            to: span.to_datetime,
            amount_details: fee.amount_details,
            properties: { ...fc.properties, units: fc.units },
            taxes: selectTaxes(fc.taxes, plan.taxes, ctx.customer.taxes, ctx.entityTaxes),
            description: null,
          },
        ];
      });
  });
}

const within = (fee: Pick<FeeDraft, "from" | "to">, span: BillingPeriod) =>
  !!fee.from && !!fee.to && new Date(fee.from) >= span.from_datetime && new Date(fee.to) <= span.to_datetime;

/**
 * The minimum commitment true-up (billing-rules §3 step 1, last fee) when this invoice closes a
 * plan period: the commitment (prorated to the days billed) less every fee of the subscription
 * over that period, this invoice's and earlier ones'; none when the fees reach it.
 */
function commitmentFee(ctx: FeeContext, priced: PricedLine, fees: readonly FeeDraft[]): FeeDraft[] {
  const { copy, line, periods } = priced;
  const commitment = copy.plan.minimum_commitment;
  const span = periods.commitment;
  if (!commitment || !span) return [];
  const { plan, subscription: s } = copy;
  const counted = [...fees, ...(priced.priorFees ?? [])].filter((f) => within(f, span));
  const fee = computeCommitmentTrueUp({
    commitment_amount_cents: commitment.amount_cents,
    fees: counted,
    billed_days: span.billed_days,
    period_days: span.period_days,
    currency: ctx.currency,
  });
  if (fee.amount_cents === 0) return []; // the fees reached it
  const name = commitment.invoice_display_name ?? "Minimum commitment";
  return [
    {
      id: derivedUuid(`${ctx.invoiceId}|fee|${line.subscription_id}|${line.reason}|commitment`),
      fee_type: "commitment",
      subscription_id: s.svc_id,
      external_subscription_id: s.external_id,
      plan_code: plan.code,
      charge_id: null,
      charge_filter_index: null,
      fixed_charge_id: null,
      billable_metric_code: null,
      charge_model: null,
      aggregation_type: null,
      true_up_parent_fee_id: null,
      true_up: false,
      item: {
        code: plan.code,
        name: plan.name,
        description: plan.description,
        invoice_display_name: name,
        filter_invoice_display_name: null,
        filters: null,
        item_id: s.svc_id,
        item_type: "Subscription",
        grouped_by: {},
      },
      units: fee.units,
      total_aggregated_units: fee.units,
      events_count: null,
      precise_unit_amount: fee.precise_unit_amount,
      amount_cents: fee.amount_cents,
      precise_amount_cents: fee.precise_amount_cents,
      pay_in_advance: false,
      invoiceable: true,
      from: span.from_datetime,
      to: span.to_datetime,
      amount_details: {},
      properties: {
        commitment_amount_cents: fee.commitment_amount_cents,
        fees_amount_cents: counted.reduce((n, f) => n + f.amount_cents, 0),
      },
      taxes: selectTaxes(commitment.taxes, plan.taxes, ctx.customer.taxes, ctx.entityTaxes),
      description: null,
    },
  ];
}

/** The fee a min_amount true-up completes points back at it (Lago's svc_true_up_fee_id). */
export function trueUpFeeOf(fees: readonly FeeDraft[], fee: FeeDraft): string | null {
  return fees.find((f) => f.true_up_parent_fee_id === fee.id)?.id ?? null;
}
