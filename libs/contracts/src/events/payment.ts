import { z } from "zod";
import { instant, maybe, text } from "./fields";

const cents = z.number().int();

/**
 * A payment as the payment service announces it (Lago's payment.requires_action and
 * payment.succeeded act on it; the whole object is PaymentService's GetPayment).
 */
export const paymentView = z.object({
  svc_id: text,
  svc_customer_id: text,
  external_customer_id: text,
  svc_invoice_ids: z.array(text),
  amount_cents: cents,
  amount_currency: text,
  /** succeeded | failed | pending | processing */
  payment_status: text,
  /** manual | provider */
  type: text,
  created_at: instant,
});
/** billing.payment.payment.created|requires_action|succeeded|failed */
export const paymentEventData = z.object({ payment: paymentView });
/** billing.payment.payment.overpaid: a succeeded payment its invoice could not wholly take, the part beyond it and how it is given back */
export const paymentOverpaidEventData = z.object({
  payment: paymentView.extend({
    overpaid_amount_cents: cents,
    overpayment_status: z.enum(["refund_pending", "refunded", "refund_failed", "to_give_back"]),
  }),
});
export type PaymentViewData = z.output<typeof paymentView>;

/** A payment request (Lago's payment_request.created and payment_request.payment_status_updated). */
export const paymentRequestView = z.object({
  svc_id: text,
  svc_customer_id: text,
  external_customer_id: text,
  svc_invoice_ids: z.array(text),
  amount_cents: cents,
  amount_currency: text,
  payment_status: z.enum(["pending", "succeeded", "failed"]),
  email: maybe(text),
  created_at: instant,
});
/** billing.payment.payment_request.created|payment_status_updated */
export const paymentRequestEventData = z.object({ payment_request: paymentRequestView });
export type PaymentRequestViewData = z.output<typeof paymentRequestView>;

/**
 * A credit note's refund the payment provider refused (Lago's credit_note.refund_failure webhook,
 * whose object, credit_note_payment_provider_refund_error, is this view).
 */
export const refundErrorView = z.object({
  svc_credit_note_id: text,
  svc_customer_id: text,
  external_customer_id: text,
  provider_customer_id: maybe(text),
  payment_provider: text,
  payment_provider_code: maybe(text),
  provider_error: z.object({ message: text, error_code: maybe(text) }),
});
/** billing.payment.refund.failed */
export const refundFailedEventData = z.object({ credit_note_payment_provider_refund_error: refundErrorView });
