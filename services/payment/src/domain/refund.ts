/**
 * A credit note's refund paid back through the provider of the invoice's payment (Lago's Refund):
 * one per credit note (its id derived from the note's), stored before the provider is asked, its
 * outcome written once, then told to invoicing (the note's refund_status).
 */
export interface Refund {
  id: string;
  organization_id: string;
  /** what it gives back: a credit note's refund (absent on refunds stored before overpayments were), or a payment's overpaid part */
  kind?: "credit_note" | "overpayment";
  /** the note refunded (an overpayment's refund: its payment's id, for reference) */
  credit_note_id: string;
  invoice_id: string;
  customer_id: string;
  external_customer_id: string;
  /** the payment refunded (the invoice's latest succeeded one) */
  payment_id: string;
  provider: { code: string; type: string; customer_id: string | null };
  provider_payment_id: string | null;
  amount_cents: number;
  currency: string;
  status: RefundStatus;
  provider_refund_id: string | null;
  /** the provider's reason when it failed */
  failure: { message: string; error_code: string | null } | null;
  /** its outcome reached the credit note (refund_status), or the overpaid payment (overpayment_status) */
  applied: boolean;
  /** when (system time) the provider last answered it is still pending; absent before */
  asked_at?: Date | null;
  created_at: Date;
  updated_at: Date;
}

export type RefundStatus = "pending" | "succeeded" | "failed";
