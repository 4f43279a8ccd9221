import { derivedUuid } from "@billing/bus";
import type { CustomerViewData, TaxViewData, UsageMessages } from "@billing/contracts";
import {
  computeInvoiceTotals,
  decimalString,
  fromCents,
  paymentDueDate,
  type InvoiceFeeInput,
  type SubscriptionInvoicePeriods,
  type TaxInput,
} from "@billing/pricing";
import type { SubscriptionCopy } from "./copies";
import type { Invoice, InvoiceView } from "./invoice";

/** One subscription on an invoice: what it covers and the charge fees usage priced for it. */
export interface InvoiceLine {
  copy: SubscriptionCopy;
  reason: Invoice["reason"];
  periods: SubscriptionInvoicePeriods;
  chargeFees: UsageMessages.ChargeFee__Output[];
}

export interface ComposeInput {
  id: string;
  customer: CustomerViewData;
  billingEntityCode: string | null;
  currency: string;
  lines: InvoiceLine[];
  /** finalized (coupons, credit notes, wallets apply) or draft */
  finalizing: boolean;
  status: "draft" | "finalized" | "closed";
  number: string;
  sequentialId: number | null;
  issuingDate: string;
  netPaymentTerm: number;
  now: Date;
  createdAt: Date;
}

const taxInputs = (taxes: readonly TaxViewData[]): TaxInput[] => taxes.map((t) => ({ code: t.code, rate: t.rate, name: t.name }));

/** Tax selection (billing-rules §3): the charge's taxes, else the plan's, else the customer's. */
function feeTaxes(own: readonly TaxViewData[], plan: readonly TaxViewData[], customer: readonly TaxViewData[]): TaxViewData[] {
  return [...(own.length > 0 ? own : plan.length > 0 ? plan : customer)];
}

interface DraftFee {
  input: InvoiceFeeInput;
  taxes: TaxViewData[];
  view: (totals: { precise_coupons_amount_cents: string; taxes_amount_cents: number; taxes_precise_amount_cents: string; taxes_rate: number; total_amount_cents: number; sub_total_excluding_taxes_amount_cents: string; applied_taxes: Array<{ tax_code: string; amount_cents: number }> }) => Record<string, unknown>;
}

/**
 * The invoice's API object from its lines: fees → (progressive credits, coupons: later issues) →
 * taxes → totals, every amount from the pricing library. Pure: the same input gives the same
 * invoice, so a rebuilt draft or a retried run writes the same document.
 */
export function composeInvoice(input: ComposeInput): InvoiceView {
  const { customer, currency } = input;
  const fees: DraftFee[] = [];
  const money = (cents: string | number) => decimalString(fromCents(cents, currency));
  for (const line of input.lines) {
    const s = line.copy.subscription;
    const plan = line.copy.plan;
    const common = {
      svc_subscription_id: s.svc_id, svc_customer_id: customer.svc_id, external_customer_id: customer.external_id,
      external_subscription_id: s.external_id, amount_currency: currency, total_amount_currency: currency,
      payment_status: "pending", created_at: input.createdAt.toISOString(), succeeded_at: null, failed_at: null, refunded_at: null,
      event_transaction_id: null, self_billed: false, svc_fixed_charge_id: null, svc_true_up_parent_fee_id: null,
    };
    const sub = line.periods.subscription;
    if (sub) {
      const taxes = feeTaxes([], plan.taxes, customer.taxes);
      fees.push({
        input: { fee_type: "subscription", amount_cents: sub.fee.amount_cents, precise_amount_cents: sub.fee.precise_amount_cents, plan_code: plan.code, taxes: taxInputs(taxes) },
        taxes,
        view: (t) => ({
          ...common, svc_charge_id: null, svc_charge_filter_id: null, svc_true_up_fee_id: null,
          amount_cents: sub.fee.amount_cents, precise_amount: money(sub.fee.precise_amount_cents), units: sub.fee.units,
          precise_unit_amount: money(sub.fee.amount_cents), total_aggregated_units: sub.fee.units, events_count: 0,
          pay_in_advance: plan.pay_in_advance, invoiceable: true,
          from_date: sub.period.from_datetime.toISOString(), to_date: sub.period.to_datetime.toISOString(),
          description: plan.description ?? null, amount_details: sub.fee.amount_details,
          item: { type: "subscription", code: plan.code, name: plan.name, description: plan.description ?? null, invoice_display_name: plan.invoice_display_name ?? plan.name, filter_invoice_display_name: null, filters: null, svc_item_id: s.svc_id, item_type: "Subscription", grouped_by: {} },
          ...t,
        }),
      });
    }
    const charges = line.periods.charges;
    for (const f of line.chargeFees) {
      if (!f.persistable) continue;
      const charge = plan.charges.find((c) => c.svc_id === f.charge_id);
      if (!charge || !charges) continue;
      const filter = f.charge_filter_index === undefined || f.charge_filter_index === null ? null : charge.filters[f.charge_filter_index] ?? null;
      const groupedBy = JSON.parse(f.grouped_by_json || "{}") as Record<string, string | null>;
      const taxes = feeTaxes(charge.taxes, plan.taxes, customer.taxes);
      fees.push({
        input: {
          fee_type: "charge", amount_cents: f.amount_cents, precise_amount_cents: f.precise_amount_cents, billable_metric_code: f.billable_metric_code,
          plan_code: plan.code, charge_id: f.charge_id, grouped_by: groupedBy, taxes: taxInputs(taxes),
        },
        taxes,
        view: (t) => ({
          ...common, svc_charge_id: f.charge_id, svc_charge_filter_id: null, svc_true_up_fee_id: null,
          amount_cents: f.amount_cents, precise_amount: money(f.precise_amount_cents), units: f.units,
          precise_unit_amount: f.precise_unit_amount, total_aggregated_units: f.total_aggregated_units, events_count: f.events_count,
          pay_in_advance: f.pay_in_advance, invoiceable: f.invoiceable,
          from_date: charges.from_datetime.toISOString(), to_date: charges.to_datetime.toISOString(),
          description: null, amount_details: JSON.parse(f.amount_details_json || "{}"),
          // what the fee was priced from, so the invoice can always be explained
          properties: JSON.parse(f.properties_json || "{}"),
          item: {
            type: "charge", code: f.billable_metric_code, name: f.billable_metric_name || f.billable_metric_code, description: null,
            invoice_display_name: `${charge.invoice_display_name ?? (f.billable_metric_name || f.billable_metric_code)}${f.true_up ? " - true-up" : ""}`,
            filter_invoice_display_name: filter?.invoice_display_name ?? null, filters: filter ? filter.values : null,
            svc_item_id: f.billable_metric_id, item_type: "BillableMetric", grouped_by: groupedBy,
          },
          ...t,
        }),
      });
    }
  }

  const totals = computeInvoiceTotals({ currency, fees: fees.map((f) => f.input), finalizing: input.finalizing });
  const taxOf = new Map(fees.flatMap((f) => f.taxes).map((t) => [t.code, t]));
  const appliedTax = (a: { tax_code: string; tax_name: string | null; tax_rate: string; amount_cents: number }, n: string, extra: Record<string, unknown>) => {
    const tax = taxOf.get(a.tax_code);
    return {
      svc_id: n, svc_tax_id: tax?.svc_id ?? a.tax_code, tax_name: a.tax_name ?? tax?.name ?? a.tax_code, tax_code: a.tax_code,
      tax_rate: Number(a.tax_rate), tax_description: tax?.description ?? null, amount_cents: a.amount_cents, amount_currency: currency,
      created_at: input.createdAt.toISOString(), ...extra,
    };
  };
  const feeViews = fees.map((fee, i) => {
    const t = totals.fees[i]!;
    const formatted = derivedUuid(`${input.id}|fee|${i}`);
    const view: Record<string, unknown> = {
      svc_id: formatted, svc_invoice_id: input.id,
      ...fee.view({
        precise_coupons_amount_cents: t.precise_coupons_amount_cents, taxes_amount_cents: t.taxes_amount_cents,
        taxes_precise_amount_cents: t.taxes_precise_amount_cents, taxes_rate: t.taxes_rate, total_amount_cents: t.total_amount_cents,
        sub_total_excluding_taxes_amount_cents: t.sub_total_excluding_taxes_amount_cents,
        applied_taxes: t.applied_taxes.map((a, j) => appliedTax(a, derivedUuid(`${formatted}|tax|${j}`), { svc_fee_id: formatted })),
      }),
    };
    return view;
  }).map(({ taxes_precise_amount_cents, sub_total_excluding_taxes_amount_cents, ...rest }) => ({
    ...rest,
    taxes_precise_amount: money(taxes_precise_amount_cents as string),
    precise_total_amount: money(Number(rest.total_amount_cents)),
    sub_total_excluding_taxes_amount_cents: Math.round(Number(sub_total_excluding_taxes_amount_cents)),
    sub_total_excluding_taxes_precise_amount_cents: decimalString(sub_total_excluding_taxes_amount_cents as string),
  }));

  const billingPeriods = input.lines.map((line) => ({
    svc_subscription_id: line.copy.subscription.svc_id, external_subscription_id: line.copy.subscription.external_id, svc_plan_id: line.copy.plan.svc_id,
    subscription_from_datetime: (line.periods.subscription?.period ?? line.periods.charges)?.from_datetime.toISOString() ?? null,
    subscription_to_datetime: (line.periods.subscription?.period ?? line.periods.charges)?.to_datetime.toISOString() ?? null,
    // a starting invoice bills no usage: its charges span is the period it starts (as Lago shows it)
    charges_from_datetime: (line.periods.charges ?? line.periods.subscription?.period)?.from_datetime.toISOString() ?? null,
    charges_to_datetime: (line.periods.charges ?? line.periods.subscription?.period)?.to_datetime.toISOString() ?? null,
    invoicing_reason: line.reason,
  }));

  return {
    svc_id: input.id,
    billing_entity_code: input.billingEntityCode,
    sequential_id: input.sequentialId,
    number: input.number,
    issuing_date: input.issuingDate,
    payment_dispute_lost_at: null,
    payment_due_date: paymentDueDate(input.issuingDate, input.netPaymentTerm),
    payment_overdue: false,
    net_payment_term: input.netPaymentTerm,
    invoice_type: "subscription",
    status: input.status,
    payment_status: input.status === "draft" ? "pending" : totals.payment_status,
    currency,
    fees_amount_cents: totals.fees_amount_cents,
    coupons_amount_cents: totals.coupons_amount_cents,
    credit_notes_amount_cents: totals.credit_notes_amount_cents,
    sub_total_excluding_taxes_amount_cents: totals.sub_total_excluding_taxes_amount_cents,
    taxes_amount_cents: totals.taxes_amount_cents,
    sub_total_including_taxes_amount_cents: totals.sub_total_including_taxes_amount_cents,
    prepaid_credit_amount_cents: totals.prepaid_credit_amount_cents,
    prepaid_granted_credit_amount_cents: 0,
    prepaid_purchased_credit_amount_cents: 0,
    progressive_billing_credit_amount_cents: totals.progressive_billing_credit_amount_cents,
    total_amount_cents: totals.total_amount_cents,
    taxes_rate: totals.taxes_rate,
    version_number: 4,
    self_billed: false,
    created_at: input.createdAt.toISOString(),
    updated_at: input.now.toISOString(),
    customer,
    metadata: [],
    applied_taxes: totals.applied_taxes.map((a, j) => appliedTax(a, derivedUuid(`${input.id}|tax|${j}`), { svc_invoice_id: input.id, fees_amount_cents: a.fees_amount_cents })),
    applied_invoice_custom_sections: [],
    applied_usage_thresholds: [],
    billing_periods: billingPeriods,
    credits: [],
    fees: feeViews,
    subscriptions: [],
    error_details: [],
  };
}
