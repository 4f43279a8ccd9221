import { type LocalDate, addDays } from "./local-date";
import { type Instant, localDateOf } from "./timezone";

export type IssuingDateAnchor = "current_period_end" | "next_period_start";
export type IssuingDateAdjustment = "keep_anchor" | "align_with_finalization_date";

export interface IssuingDateInput {
  /** When the invoice is generated. */
  invoicing_at: Instant;
  timezone?: string;
  /** subscription invoices are adjusted; credit, progressive, one-off and in-advance charge invoices are not. */
  invoice_type: "subscription" | "credit" | "progressive_billing" | "one_off" | "advance_charges";
  /** subscription_periodic, or another reason (starting, upgrade, termination). */
  periodic: boolean;
  grace_period_days?: number;
  /** Customer setting, else billing entity's (default next_period_start + align_with_finalization_date). */
  anchor?: IssuingDateAnchor | null;
  adjustment?: IssuingDateAdjustment | null;
}

export interface IssuingDates {
  issuing_date: LocalDate;
  /** Subscription invoices only: base date + grace period. */
  expected_finalization_date: LocalDate | null;
}

/** Issuing date of an invoice: the invoicing day in the customer's zone, shifted by anchor and adjustment. */
export function invoiceIssuingDates(input: IssuingDateInput): IssuingDates {
  const base = localDateOf(input.invoicing_at, input.timezone ?? "UTC");
  const grace = input.grace_period_days ?? 0;
  if (input.invoice_type !== "subscription") return { issuing_date: base, expected_finalization_date: null };
  let shift = grace;
  if (input.periodic) {
    const anchor = input.anchor ?? "next_period_start";
    const align = (input.adjustment ?? "align_with_finalization_date") === "align_with_finalization_date";
    if (anchor === "current_period_end") shift = align && grace > 0 ? grace : -1;
    else shift = align ? grace : 0;
  }
  return { issuing_date: addDays(base, shift), expected_finalization_date: addDays(base, grace) };
}

/** payment_due_date = issuing_date + net_payment_term days. */
export function paymentDueDate(issuingDate: LocalDate, netPaymentTermDays: number): LocalDate {
  return addDays(issuingDate, netPaymentTermDays);
}
