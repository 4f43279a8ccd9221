import { derivedUuid } from "@billing/codes";
import type { AdvanceFeeData, CustomerViewData, TaxViewData } from "@billing/contracts";
import type { Fee, FeeDraft, Invoice } from "./invoice";
import { selectTaxes } from "./invoice-fees";
import { priceInvoice } from "./invoice-totals";
import { immediateInvoice } from "./compose-invoice";
import { invoiceDates, type BillingEntityTerms, type InvoicingTerms } from "./invoicing-terms";

export type FeePaymentStatus = "pending" | "succeeded" | "failed" | "refunded";

/** A pay-in-advance fee as invoicing stores it: the fee (taxed), and its own invoice or none yet. */
export interface AdvanceFeeRecord {
  id: string;
  organization_id: string;
  customer_id: string;
  external_customer_id: string;
  subscription_id: string;
  external_subscription_id: string;
  billable_metric_code: string;
  currency: string;
  /** the fee, its taxes applied (an invoiced fee: as its invoice was composed; the invoice is the reference) */
  fee: Fee;
  /** its own invoice (invoiceable), the advance_charges invoice that gathered it (paid, regrouped), or null while it waits */
  invoice_id: string | null;
  /** the event it was priced for; null for a billing's recurring fee (carried-over units, billing/recurring-advance-fees.ts) */
  event_transaction_id: string | null;
  payment_status: FeePaymentStatus;
  succeeded_at: Date | null;
  failed_at: Date | null;
  refunded_at: Date | null;
  created_at: Date;
  updated_at: Date;
  revision: number;
}

/** Lago: an invoiceable charge gets an invoice per event, unless its paid fees are regrouped on an invoice later. */
export const ownInvoice = (fee: Pick<AdvanceFeeData, "invoiceable" | "regroup_paid_fees">) =>
  fee.invoiceable && fee.regroup_paid_fees !== "invoice";

/** The id of the invoice of one pay-in-advance fee: derived from the fee (one invoice per fee, whoever writes it). */
export const advanceInvoiceIdOf = (feeId: string) => derivedUuid(`advance_invoice|${feeId}`);

const filterName = (f: NonNullable<AdvanceFeeData["filter"]>) =>
  f.invoice_display_name || Object.values(f.values).flat().join(", ");

/**
 * A pay-in-advance fee before the invoice pipeline, with the charge version it was priced with
 * (kept through the pipeline, which spreads the draft into the Fee, for the invoice's audit).
 */
export type AdvanceFeeDraft = FeeDraft & Pick<Fee, "charge_version">;

/** The fee before the invoice pipeline: taxes selected (billing-rules §3: charge > plan > customer > billing entity). Pure. */
export function advanceFeeDraft(
  fee: AdvanceFeeData,
  customer: CustomerViewData | null,
  entityTaxes: readonly TaxViewData[],
): AdvanceFeeDraft {
  const grouped = Object.fromEntries(Object.entries(fee.grouped_by).map(([k, v]) => [k, v ?? ""]));
  return {
    id: fee.id,
    fee_type: "charge",
    subscription_id: fee.subscription_id,
    external_subscription_id: fee.external_subscription_id,
    plan_code: fee.plan_code,
    charge_id: fee.charge_id,
    charge_filter_index: fee.charge_filter_index,
    fixed_charge_id: null,
    billable_metric_code: fee.metric.code,
    charge_model: fee.charge_model,
    aggregation_type: fee.metric.aggregation_type,
    true_up_parent_fee_id: null,
    true_up: false,
    item: {
      code: fee.metric.code,
      name: fee.metric.name,
      description: fee.metric.description,
      invoice_display_name: fee.invoice_display_name || fee.metric.name,
      filter_invoice_display_name: fee.filter ? filterName(fee.filter) : null,
      filters: fee.filter ? fee.filter.values : null,
      item_id: fee.metric.svc_id,
      item_type: "BillableMetric",
      grouped_by: grouped,
    },
    units: fee.units,
    total_aggregated_units: fee.units,
    events_count: 1,
    precise_unit_amount: fee.precise_unit_amount,
    amount_cents: fee.amount_cents,
    precise_amount_cents: fee.precise_amount_cents,
    pay_in_advance: true,
    invoiceable: fee.invoiceable,
    from: new Date(fee.from),
    to: new Date(fee.to),
    amount_details: fee.amount_details,
    properties: fee.properties,
    taxes: selectTaxes(fee.charge_taxes, fee.plan_taxes, customer?.taxes ?? [], entityTaxes),
    description: null,
    charge_version: fee.charge_version ?? null,
  };
}

/** A fee that waits for its periodic invoice: taxed now (billing-rules §1.12), no coupon. Pure. */
export function taxedAdvanceFee(draft: FeeDraft, currency: string): Fee {
  return priceInvoice({ currency, fees: [draft], coupons: [], finalizing: false }).fees[0]!;
}

type FeeTotals = Omit<Fee, keyof FeeDraft>;

/**
 * taxedAdvanceFee for the many fees of a batch: a fee alone on its invoice, without coupons, is
 * taxed from its amount, its taxes and the currency only, so fees alike in those are taxed once
 * (a burst's fees mostly repeat a few amounts) and the others take the same totals, completing
 * their draft (given up by the caller: it becomes the fee).
 */
export function advanceFeeTaxer(): (draft: FeeDraft, currency: string) => Fee {
  const memo = new Map<string, FeeTotals>();
  return (draft, currency) => {
    const taxes = draft.taxes
      .map((t) => `${t.svc_id}\u0000${t.code}\u0000${t.rate}\u0000${t.name}\u0000${t.description ?? ""}`)
      .join("\u0001");
    const key = `${currency}|${draft.amount_cents}|${draft.precise_amount_cents}|${taxes}`;
    const known = memo.get(key);
    if (known) return Object.assign(draft, known, { applied_taxes: known.applied_taxes.map((t) => ({ ...t })) });
    const fee = taxedAdvanceFee(draft, currency);
    if (memo.size < 10_000) {
      memo.set(key, {
        precise_coupons_amount_cents: fee.precise_coupons_amount_cents,
        taxes_amount_cents: fee.taxes_amount_cents,
        taxes_precise_amount_cents: fee.taxes_precise_amount_cents,
        taxes_rate: fee.taxes_rate,
        sub_total_excluding_taxes_precise_amount_cents: fee.sub_total_excluding_taxes_precise_amount_cents,
        total_amount_cents: fee.total_amount_cents,
        applied_taxes: fee.applied_taxes,
      });
    }
    return fee;
  };
}

export interface AdvanceInvoiceInput {
  fee: AdvanceFeeData;
  draft: FeeDraft;
  customer: { id: string; customer: CustomerViewData };
  entity: BillingEntityTerms | null;
  terms: InvoicingTerms;
  sandbox: boolean;
  now: Date;
}

/**
 * The invoice of one invoiceable pay-in-advance fee (`invoice_type: subscription`): issued on the
 * event's day in the customer's zone, no grace period (stored `generating`, finalized at once
 * through the invoice pipeline: coupons, taxes, credit notes, prepaid credits). Pure.
 */
export function advanceFeeInvoice(input: AdvanceInvoiceInput): Invoice {
  const { fee, customer } = input;
  const id = advanceInvoiceIdOf(fee.id);
  const at = new Date(fee.event_timestamp);
  const dates = invoiceDates({ ...input.terms, graceDays: 0, anchor: null, adjustment: null }, at, []);
  return immediateInvoice({
    id,
    organizationId: fee.organization_id,
    customer,
    entity: input.entity,
    sandbox: input.sandbox,
    invoiceType: "subscription",
    billedAt: at,
    lines: [
      {
        subscription_id: fee.subscription_id,
        external_subscription_id: fee.external_subscription_id,
        plan_id: fee.plan_id,
        plan_code: fee.plan_code,
        reason: "subscription_periodic",
        invoicing_reason: "in_advance_charge",
        at,
        subscription_from: null,
        subscription_to: null,
        charges_from: new Date(fee.from),
        charges_to: new Date(fee.to),
      },
    ],
    currency: fee.currency,
    fees: [input.draft],
    dates: {
      issuing_date: dates.issuing_date,
      payment_due_date: dates.payment_due_date,
      net_payment_term: dates.net_payment_term,
    },
    now: input.now,
  });
}
