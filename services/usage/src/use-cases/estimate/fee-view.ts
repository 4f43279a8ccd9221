import { currencyInfo, Decimal, decimalString, type EstimatedFee } from "@billing/pricing";
import type { ChargeCopy, ChargeFilterCopy, MetricCopy, SubscriptionCopy, TaxCopy } from "../../domain/read-copies";

export interface FeeViewInput {
  fee: EstimatedFee;
  charge: ChargeCopy;
  filter: ChargeFilterCopy | null;
  metric: MetricCopy;
  subscription: SubscriptionCopy;
  /** The taxes the fee was taxed with (charge taxes, else the plan's). */
  taxes: readonly TaxCopy[];
  period: { from: Date; to: Date };
  currency: string;
  transactionId: string;
  now: Date;
  newId: () => string;
}

/** A filter's name on invoices: its own, else its values (Lago's ChargeFilter#display_name). */
const filterName = (f: ChargeFilterCopy) => f.invoice_display_name || Object.values(f.values).flat().join(", ");

/**
 * Lago's Fee object for an estimated (never stored) pay-in-advance fee: svc_id and invoice null,
 * pay_in_advance true, events_count 1, taxes applied. Applied taxes get an id and a creation
 * time as the API object requires them.
 */
export function feeView(input: FeeViewInput) {
  const { fee, charge, filter, metric, currency } = input;
  const s = input.subscription.subscription;
  const subunit = currencyInfo(currency).subunit;
  const major = (cents: Decimal) => decimalString(cents.div(subunit));
  const preciseCents = new Decimal(fee.precise_amount_cents);
  const taxesPreciseCents = new Decimal(fee.taxes_precise_amount_cents);
  const taxByCode = new Map(input.taxes.map((t) => [t.code, t]));
  return {
    svc_id: null,
    svc_charge_id: charge.svc_id,
    svc_charge_filter_id: null,
    svc_fixed_charge_id: null,
    svc_invoice_id: null,
    svc_true_up_fee_id: null,
    svc_true_up_parent_fee_id: null,
    svc_subscription_id: s.svc_id,
    svc_customer_id: s.svc_customer_id,
    external_customer_id: s.external_customer_id,
    external_subscription_id: s.external_id,
    invoice_display_name: charge.invoice_display_name,
    item: {
      type: "charge",
      code: metric.code,
      name: metric.name,
      description: metric.description,
      invoice_display_name: charge.invoice_display_name || metric.name,
      filters: filter ? filter.values : null,
      filter_invoice_display_name: filter ? filterName(filter) : null,
      svc_item_id: metric.svc_id,
      item_type: "BillableMetric",
      grouped_by: fee.grouped_by,
    },
    pay_in_advance: true,
    invoiceable: charge.invoiceable,
    amount_cents: fee.amount_cents,
    amount_currency: currency,
    precise_amount: major(preciseCents),
    precise_total_amount: major(preciseCents.plus(taxesPreciseCents)),
    taxes_amount_cents: fee.taxes_amount_cents,
    taxes_precise_amount: major(taxesPreciseCents),
    taxes_rate: fee.taxes_rate,
    total_aggregated_units: fee.units,
    total_amount_cents: fee.total_amount_cents,
    total_amount_currency: currency,
    units: fee.units,
    description: null,
    precise_unit_amount: fee.precise_unit_amount,
    precise_coupons_amount_cents: "0.0",
    sub_total_excluding_taxes_amount_cents: fee.amount_cents,
    sub_total_excluding_taxes_precise_amount_cents: fee.precise_amount_cents,
    events_count: fee.events_count,
    payment_status: "pending",
    created_at: null,
    succeeded_at: null,
    failed_at: null,
    refunded_at: null,
    event_transaction_id: input.transactionId,
    from_date: input.period.from.toISOString(),
    to_date: input.period.to.toISOString(),
    amount_details: fee.amount_details,
    self_billed: false,
    pricing_unit_details: null,
    applied_taxes: fee.applied_taxes.map((t) => ({
      svc_id: input.newId(),
      svc_fee_id: null,
      svc_tax_id: taxByCode.get(t.tax_code)?.svc_id ?? null,
      tax_name: t.tax_name ?? t.tax_code,
      tax_code: t.tax_code,
      tax_rate: Number(t.tax_rate),
      tax_description: taxByCode.get(t.tax_code)?.description ?? null,
      amount_cents: t.amount_cents,
      amount_currency: currency,
      created_at: input.now.toISOString(),
    })),
  };
}
export type FeeView = ReturnType<typeof feeView>;
