import {
  amountDetailsToProto,
  feePropertiesToProto,
  type CatalogMessages,
  type InvoicingMessages as M,
} from "@billing/contracts";
import type { Nullable } from "@billing/grpc";
import { currentBillingPeriod, decimalString, fromCents, type PlanInterval } from "@billing/pricing";
import { derivedUuid } from "@billing/bus";
import { AppError } from "@billing/errors";
import type { SubscriptionCopy } from "../domain/copies";
import type { Fee, Invoice } from "../domain/invoice";
import { trueUpFeeOf } from "../domain/invoice-fees";
import { appliedUsageThresholdMessages } from "./lifetime-usage-messages";
import { isPaymentOverdue } from "../domain/payment-overdue";
import type { InvoiceFilter } from "../persistence/invoice-repository";
import { dueOf, overpaidOf } from "../use-cases/invoices/apply-payment";
import type { InvoiceUpdate } from "../use-cases/invoices/update-invoice";

/** Proto ⇄ domain for invoices: Lago's InvoiceObjectExtended and FeeObject, field for field. */

type InvoiceMessage = Nullable<M.Invoice>;
type FeeMessage = Nullable<M.Fee>;

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

export function feeMessage(invoice: Invoice, fee: Fee): FeeMessage {
  const money = (cents: string | number) => decimalString(fromCents(cents, invoice.currency));
  const created = iso(invoice.created_at);
  return {
    svc_id: fee.id,
    svc_charge_id: fee.charge_id,
    svc_charge_filter_id: null,
    svc_fixed_charge_id: fee.fixed_charge_id,
    svc_invoice_id: invoice.id,
    svc_true_up_fee_id: trueUpFeeOf(invoice.fees, fee),
    svc_true_up_parent_fee_id: fee.true_up_parent_fee_id,
    svc_subscription_id: fee.subscription_id || null,
    svc_customer_id: invoice.customer_id,
    external_customer_id: invoice.external_customer_id,
    external_subscription_id: fee.external_subscription_id || null,
    amount_cents: fee.amount_cents,
    precise_amount: money(fee.precise_amount_cents),
    precise_total_amount: money(fee.total_amount_cents),
    amount_currency: invoice.currency,
    taxes_amount_cents: fee.taxes_amount_cents,
    taxes_precise_amount: money(fee.taxes_precise_amount_cents),
    taxes_rate: fee.taxes_rate,
    units: fee.units,
    precise_unit_amount: fee.precise_unit_amount,
    total_aggregated_units: fee.total_aggregated_units,
    total_amount_cents: fee.total_amount_cents,
    total_amount_currency: invoice.currency,
    events_count: fee.events_count,
    pay_in_advance: fee.pay_in_advance,
    invoiceable: fee.invoiceable,
    from_date: iso(fee.from),
    to_date: iso(fee.to),
    payment_status: invoice.payment_status,
    created_at: created,
    succeeded_at: null,
    failed_at: null,
    refunded_at: null,
    event_transaction_id: null,
    description: fee.description,
    precise_coupons_amount_cents: decimalString(fee.precise_coupons_amount_cents),
    sub_total_excluding_taxes_amount_cents: Math.round(Number(fee.sub_total_excluding_taxes_precise_amount_cents)),
    sub_total_excluding_taxes_precise_amount_cents: decimalString(fee.sub_total_excluding_taxes_precise_amount_cents),
    amount_details: amountDetailsToProto(fee.amount_details),
    self_billed: false,
    item: {
      type: fee.fee_type,
      code: fee.item.code,
      name: fee.item.name,
      description: fee.item.description,
      invoice_display_name: fee.item.invoice_display_name,
      filter_invoice_display_name: fee.item.filter_invoice_display_name,
      filters: fee.item.filters
        ? { values: Object.fromEntries(Object.entries(fee.item.filters).map(([k, values]) => [k, { values }])) }
        : null,
      svc_item_id: fee.item.item_id,
      item_type: fee.item.item_type,
      grouped_by: fee.item.grouped_by,
    },
    applied_taxes: fee.applied_taxes.map((t) => ({
      svc_id: derivedUuid(`${fee.id}|tax|${t.tax_code}`),
      svc_tax_id: t.tax_id,
      tax_name: t.tax_name,
      tax_code: t.tax_code,
      tax_rate: Number(t.tax_rate),
      tax_description: t.tax_description,
      amount_cents: t.amount_cents,
      amount_currency: invoice.currency,
      created_at: created,
      svc_fee_id: fee.id,
    })),
    properties: feePropertiesToProto(fee.fee_type, fee.properties),
  };
}

/** The customer as an invoice or a credit note shows it: its copy at the time, the fields of Lago's CustomerObject invoicing keeps. */
export const invoiceCustomerMessage = (c: Invoice["customer"]): Nullable<M.InvoiceCustomer> => ({
  svc_id: c.svc_id,
  sequential_id: c.sequential_id,
  slug: c.slug,
  external_id: c.external_id,
  billing_entity_code: c.billing_entity_code,
  name: c.name,
  email: c.email,
  currency: c.currency,
  country: c.country,
  timezone: c.timezone,
  applicable_timezone: c.applicable_timezone,
  net_payment_term: c.net_payment_term,
  finalize_zero_amount_invoice: c.finalize_zero_amount_invoice,
  created_at: c.created_at,
  updated_at: c.updated_at,
});

/** Lago's SubscriptionObject (without plan) of a subscription an invoice bills, from invoicing's copy, at `now`. */
function invoiceSubscriptionMessage(copy: SubscriptionCopy, now: Date): Nullable<CatalogMessages.Subscription> {
  const s = copy.subscription;
  const period = currentBillingPeriod({ ...s, interval: copy.plan.interval as PlanInterval }, now);
  return {
    svc_id: s.svc_id,
    external_id: s.external_id,
    svc_customer_id: s.svc_customer_id,
    external_customer_id: s.external_customer_id,
    billing_time: s.billing_time,
    name: s.name,
    plan_code: s.plan_code,
    status: s.status,
    created_at: s.created_at,
    canceled_at: s.canceled_at,
    started_at: s.started_at,
    ending_at: s.ending_at,
    subscription_at: s.subscription_at,
    terminated_at: s.terminated_at,
    previous_plan_code: s.previous_plan_code,
    next_plan_code: s.next_plan_code,
    downgrade_plan_date: s.downgrade_plan_date,
    trial_ended_at: s.trial_ended_at,
    current_billing_period_started_at: iso(period?.from),
    current_billing_period_ending_at: iso(period?.to),
    on_termination_credit_note: s.on_termination_credit_note,
    on_termination_invoice: s.on_termination_invoice ?? "generate",
    plan_amount_cents: copy.plan.amount_cents,
    plan_amount_currency: copy.plan.amount_currency,
    payment_method: { payment_method_type: "provider", payment_method_id: null },
    progressive_billing_disabled: s.progressive_billing_disabled ?? false,
    applicable_usage_thresholds: [],
  };
}

/**
 * Lago's InvoiceObject. `now` (the organization's) tells whether a finalized invoice not paid
 * by its due date is overdue; `subscriptions` (invoiceSubscriptions) are the copies of those it
 * bills (one missing is left out).
 */
export function invoiceMessage(
  invoice: Invoice,
  now?: Date,
  subscriptions?: ReadonlyMap<string, SubscriptionCopy>,
): InvoiceMessage {
  const a = invoice.amounts;
  const created = iso(invoice.created_at)!;
  return {
    svc_id: invoice.id,
    billing_entity_code: invoice.billing_entity_code,
    sequential_id: invoice.sequential_id,
    number: invoice.number,
    issuing_date: invoice.issuing_date,
    payment_dispute_lost_at: null,
    payment_due_date: invoice.payment_due_date,
    payment_overdue: Boolean(now) && isPaymentOverdue(invoice, now!),
    net_payment_term: invoice.net_payment_term,
    invoice_type: invoice.invoice_type,
    status: invoice.status,
    payment_status: invoice.payment_status,
    currency: invoice.currency,
    fees_amount_cents: a.fees_amount_cents,
    coupons_amount_cents: a.coupons_amount_cents,
    credit_notes_amount_cents: a.credit_notes_amount_cents,
    sub_total_excluding_taxes_amount_cents: a.sub_total_excluding_taxes_amount_cents,
    taxes_amount_cents: a.taxes_amount_cents,
    sub_total_including_taxes_amount_cents: a.sub_total_including_taxes_amount_cents,
    prepaid_credit_amount_cents: a.prepaid_credit_amount_cents,
    prepaid_granted_credit_amount_cents: 0,
    prepaid_purchased_credit_amount_cents: 0,
    progressive_billing_credit_amount_cents: a.progressive_billing_credit_amount_cents,
    total_amount_cents: a.total_amount_cents,
    version_number: 4,
    self_billed: false,
    file_url: null,
    web_url: null,
    created_at: created,
    updated_at: iso(invoice.updated_at)!,
    customer: invoiceCustomerMessage(invoice.customer),
    metadata: invoice.metadata.map((m) => ({
      svc_id: m.id,
      key: m.key,
      value: m.value,
      created_at: iso(m.created_at)!,
    })),
    applied_taxes: invoice.applied_taxes.map((t) => ({
      svc_id: derivedUuid(`${invoice.id}|tax|${t.tax_code}`),
      svc_tax_id: t.tax_id,
      tax_name: t.tax_name,
      tax_code: t.tax_code,
      tax_rate: Number(t.tax_rate),
      tax_description: t.tax_description,
      amount_cents: t.amount_cents,
      amount_currency: invoice.currency,
      created_at: created,
      svc_invoice_id: invoice.id,
      fees_amount_cents: t.fees_amount_cents,
    })),
    billing_periods: invoice.lines.map((l) => {
      // a starting invoice bills no usage: its charges span is the period it starts (as Lago shows it), and conversely
      const subFrom = l.subscription_from ?? l.charges_from ?? l.fixed_from;
      const subTo = l.subscription_to ?? l.charges_to ?? l.fixed_to;
      return {
        svc_subscription_id: l.subscription_id,
        external_subscription_id: l.external_subscription_id,
        svc_plan_id: l.plan_id,
        subscription_from_datetime: iso(subFrom) ?? "",
        subscription_to_datetime: iso(subTo) ?? "",
        charges_from_datetime: iso(l.charges_from ?? subFrom) ?? "",
        charges_to_datetime: iso(l.charges_to ?? subTo) ?? "",
        invoicing_reason: l.invoicing_reason ?? l.reason,
      };
    }),
    credits: invoice.credits.map((cr) => ({
      svc_id: cr.id,
      amount_cents: cr.amount_cents,
      amount_currency: cr.currency,
      before_taxes: cr.item.type !== "credit_note",
      item: { svc_item_id: cr.item.id, type: cr.item.type, code: cr.item.code, name: cr.item.name },
      invoice: { svc_id: invoice.id, payment_status: invoice.payment_status },
    })),
    fees: invoice.fees.map((f) => feeMessage(invoice, f)),
    taxes_rate: a.taxes_rate,
    expected_finalization_date: invoice.expected_finalization_date,
    total_paid_amount_cents: invoice.total_paid_amount_cents ?? 0,
    total_due_amount_cents:
      invoice.status !== "finalized" || invoice.payment_status === "succeeded" ? 0 : dueOf(invoice),
    total_overpaid_amount_cents: overpaidOf(invoice),
    overpayments: invoice.overpayments ?? [],
    applied_usage_thresholds: appliedUsageThresholdMessages(invoice),
    applied_invoice_custom_sections: (invoice.applied_custom_sections ?? []).map((section) => ({
      svc_id: section.id,
      svc_invoice_id: invoice.id,
      code: section.code,
      details: section.details ?? "",
      display_name: section.display_name ?? section.name,
      created_at: iso(section.created_at)!,
    })),
    subscriptions: [...new Set(invoice.lines.map((l) => l.subscription_id))]
      .map((id) => subscriptions?.get(id))
      .filter((copy): copy is SubscriptionCopy => !!copy)
      .map((copy) => invoiceSubscriptionMessage(copy, now ?? new Date())),
  };
}

export function invoiceFilterOf(req: M.ListInvoicesRequest__Output): InvoiceFilter {
  return {
    externalCustomerId: req.external_customer_id || undefined,
    status: req.status || undefined,
    paymentStatus: req.payment_status || undefined,
    invoiceType: req.invoice_type || undefined,
    issuingDateFrom: req.issuing_date_from || undefined,
    issuingDateTo: req.issuing_date_to || undefined,
    statuses: req.statuses.length ? req.statuses : undefined,
    paymentStatuses: req.payment_statuses.length ? req.payment_statuses : undefined,
  };
}

const PAYMENT_STATUSES = ["pending", "succeeded", "failed"];

export function invoiceUpdateOf(req: M.UpdateInvoiceRequest__Output): InvoiceUpdate {
  if (req.payment_status && !PAYMENT_STATUSES.includes(req.payment_status))
    throw AppError.validation({ payment_status: ["value_is_invalid"] });
  return {
    paymentStatus: (req.payment_status || undefined) as InvoiceUpdate["paymentStatus"],
    metadata: req.update_metadata
      ? req.metadata.map((m) => ({ id: m.id ?? null, key: m.key, value: m.value }))
      : undefined,
  };
}
