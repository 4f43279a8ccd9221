import { z } from "zod";
import { instant, maybe, text } from "./fields";

const cents = z.number().int();
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/**
 * An invoice as the invoicing service announces it (the fields of Lago's InvoiceObject that the
 * payment and wallet services and webhooks act on; its fees come one event each, and the whole
 * object is the InvoiceService's GetInvoice).
 */
export const invoiceView = z.object({
  svc_id: text,
  number: text,
  status: z.enum(["draft", "finalized", "closed", "voided", "deleted"]),
  payment_status: z.enum(["pending", "succeeded", "failed"]),
  invoice_type: text,
  billing_entity_code: maybe(text),
  sequential_id: maybe(z.number().int()),
  currency: text,
  issuing_date: text,
  payment_due_date: maybe(day),
  net_payment_term: maybe(z.number().int()),
  fees_amount_cents: cents,
  coupons_amount_cents: cents.default(0),
  credit_notes_amount_cents: cents.default(0),
  prepaid_credit_amount_cents: cents.default(0),
  progressive_billing_credit_amount_cents: cents.default(0),
  sub_total_excluding_taxes_amount_cents: cents.optional(),
  taxes_amount_cents: cents,
  sub_total_including_taxes_amount_cents: cents.optional(),
  total_amount_cents: cents,
  fees_count: z.number().int().optional(),
  /** The subscriptions it bills (svc_ids). */
  subscription_ids: z.array(text).default([]),
  customer: z.object({ svc_id: text, external_id: text }),
  /** a credit invoice's wallet transaction (its payment settles the top-up) */
  svc_wallet_transaction_id: maybe(text).optional(),
  created_at: instant,
  updated_at: instant,
});
/** billing.invoicing.invoice.created|drafted|finalized|payment_status_updated (Lago's invoice.created, invoice.drafted, invoice.generated, invoice.payment_status_updated). */
export const invoiceEventData = z.object({ invoice: invoiceView });
export type InvoiceViewData = z.output<typeof invoiceView>;

/** One fee of a finalized invoice (Lago's FeeObject essentials; svc_ ids). */
export const feeView = z.object({
  svc_id: text,
  svc_invoice_id: text,
  /** subscription | charge | fixed_charge | commitment */
  fee_type: text,
  item_code: text,
  item_name: text,
  svc_subscription_id: maybe(text),
  external_subscription_id: maybe(text),
  svc_customer_id: text,
  external_customer_id: text,
  svc_charge_id: maybe(text),
  svc_fixed_charge_id: maybe(text),
  billable_metric_code: maybe(text),
  amount_cents: cents,
  amount_currency: text,
  precise_amount_cents: text,
  precise_coupons_amount_cents: text,
  taxes_amount_cents: cents,
  total_amount_cents: cents,
  units: text,
  events_count: maybe(z.number().int()),
  pay_in_advance: z.boolean(),
  invoiceable: z.boolean(),
  from_date: maybe(instant),
  to_date: maybe(instant),
  created_at: instant,
});
/** billing.invoicing.fee.created: each fee of an invoice when it is finalized (fees never change after). */
export const feeEventData = z.object({ fee: feeView });
export type FeeViewData = z.output<typeof feeView>;

/**
 * billing.invoicing.advance_fee.created: a pay-in-advance fee created by a usage event, on its own
 * invoice (invoiceable) or waiting (`svc_invoice_id` null; paid fees of a regrouping charge go on the
 * next billing run's advance_charges invoice). Lago's fee.created webhook.
 */
export const advanceFeeView = feeView.extend({
  svc_invoice_id: maybe(text),
  event_transaction_id: maybe(text),
  payment_status: z.enum(["pending", "succeeded", "failed", "refunded"]),
});
export const advanceFeeEventData = z.object({ fee: advanceFeeView });
/**
 * billing.invoicing.advance_fees.created: the pay-in-advance fees of one usage envelope (or one
 * billing's recurring fees), up to ADVANCE_FEES_PER_EVENT per envelope: one message for many fees,
 * each still its own fee.created webhook. Replaces advance_fee.created (one message per fee).
 */
export const advanceFeesEventData = z.object({ fees: z.array(advanceFeeView).min(1) });
/** The most fees one advance_fees.created carries (about 800 bytes each: well under NATS's 1 MiB payload). */
export const ADVANCE_FEES_PER_EVENT = 250;
export type AdvanceFeeViewData = z.output<typeof advanceFeeView>;

/**
 * billing.invoicing.subscription.usage_threshold_reached: one per usage threshold a subscription's
 * lifetime usage crossed (progressive billing), with the progressive_billing invoice it produced.
 */
export const usageThresholdReachedData = z.object({
  subscription: z.object({
    svc_id: text,
    external_id: text,
    svc_customer_id: text,
    external_customer_id: text,
    plan_code: text,
  }),
  usage_threshold: z.object({
    svc_id: text,
    threshold_display_name: maybe(text),
    amount_cents: cents,
    recurring: z.boolean(),
    created_at: maybe(instant),
    updated_at: maybe(instant),
  }),
  lifetime_usage_amount_cents: cents,
  svc_invoice_id: text,
  reached_at: instant,
});
