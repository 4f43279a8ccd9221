import type { CustomerViewData, TaxViewData } from "@billing/contracts";
import {
  addDays,
  invoiceIssuingDates,
  localDateOf,
  paymentDueDate,
  startOfLocalDay,
  type IssuingDateAdjustment,
  type IssuingDateAnchor,
} from "@billing/pricing";
import type { SubscriptionInvoicingReason } from "@billing/codes";

/** What invoicing reads of a billing entity (the customer service's BillingEntity). */
export interface BillingEntityTerms {
  code: string;
  id: string;
  name: string;
  document_numbering: string;
  document_number_prefix: string | null;
  finalize_zero_amount_invoice: boolean;
  invoice_grace_period: number;
  net_payment_term: number;
  subscription_invoice_issuing_date_anchor: string | null;
  subscription_invoice_issuing_date_adjustment: string | null;
  timezone: string | null;
  taxes: TaxViewData[];
}

export interface InvoicingTerms {
  graceDays: number;
  netPaymentTerm: number;
  /** finalize a zero-amount invoice (else it is closed) */
  finalizeZero: boolean;
  anchor: IssuingDateAnchor | null;
  adjustment: IssuingDateAdjustment | null;
  timezone: string;
}

/** Grace period, payment term, zero-amount policy and issuing-date rules: the customer's, else its billing entity's. */
export function invoicingTerms(customer: CustomerViewData, entity: BillingEntityTerms | null): InvoicingTerms {
  const config = customer.billing_configuration;
  const zeroPolicy = customer.finalize_zero_amount_invoice;
  return {
    graceDays: config.invoice_grace_period ?? entity?.invoice_grace_period ?? 0,
    netPaymentTerm: customer.net_payment_term ?? entity?.net_payment_term ?? 0,
    finalizeZero:
      zeroPolicy === "finalize" || (zeroPolicy !== "skip" && (entity?.finalize_zero_amount_invoice ?? true)),
    anchor: (config.subscription_invoice_issuing_date_anchor ??
      entity?.subscription_invoice_issuing_date_anchor ??
      null) as IssuingDateAnchor | null,
    adjustment: (config.subscription_invoice_issuing_date_adjustment ??
      entity?.subscription_invoice_issuing_date_adjustment ??
      null) as IssuingDateAdjustment | null,
    timezone: customer.applicable_timezone || customer.timezone || entity?.timezone || "UTC",
  };
}

export interface InvoiceDates {
  issuing_date: string;
  payment_due_date: string;
  net_payment_term: number;
  /** the day a draft is finalized (null without a grace period) */
  expected_finalization_date: string | null;
  /** when the grace period ends (the start of that day, customer's zone); null without one */
  grace_ends_at: Date | null;
}

/**
 * A subscription invoice's dates (billing-rules §4): issuing_date from the billing instant in the
 * customer's zone shifted by anchor and adjustment (periodic invoices) or by the grace period
 * (starting, upgrade and termination invoices); payment_due_date = issuing_date + net payment term;
 * a draft is finalized on the billing day + grace.
 */
export function invoiceDates(
  terms: InvoicingTerms,
  billedAt: Date,
  reasons: readonly SubscriptionInvoicingReason[],
  invoiceType: "subscription" | "credit" | "progressive_billing" = "subscription",
): InvoiceDates {
  const dates = invoiceIssuingDates({
    invoicing_at: billedAt,
    timezone: terms.timezone,
    invoice_type: invoiceType,
    periodic: reasons.includes("subscription_periodic"),
    grace_period_days: terms.graceDays,
    anchor: terms.anchor,
    adjustment: terms.adjustment,
  });
  // a credit invoice (a wallet top-up) has no grace period: it is finalized at once
  const graceDay =
    invoiceType === "subscription" && terms.graceDays > 0
      ? (dates.expected_finalization_date ?? addDays(dates.issuing_date, terms.graceDays))
      : null;
  return {
    issuing_date: dates.issuing_date,
    payment_due_date: paymentDueDate(dates.issuing_date, terms.netPaymentTerm),
    net_payment_term: terms.netPaymentTerm,
    expected_finalization_date: graceDay,
    grace_ends_at: graceDay ? startOfLocalDay(graceDay, terms.timezone) : null,
  };
}

/**
 * A draft finalized before its grace period ends is issued that day when its dates align with the
 * finalization (align_with_finalization_date, the default), as Lago re-dates it; otherwise, and
 * for an invoice finalized on time, its dates stay.
 */
export function finalizationDates(
  invoice: { issuing_date: string; net_payment_term: number },
  terms: InvoicingTerms,
  finalizedAt: Date,
) {
  const today = localDateOf(finalizedAt, terms.timezone);
  if (
    (terms.adjustment ?? "align_with_finalization_date") !== "align_with_finalization_date" ||
    today >= invoice.issuing_date
  )
    return null;
  return { issuing_date: today, payment_due_date: paymentDueDate(today, invoice.net_payment_term) };
}
