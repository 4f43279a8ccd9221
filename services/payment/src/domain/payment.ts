/**
 * A payment of an invoice (Lago's PaymentObject): recorded by a client (manual) or charged
 * through the customer's payment provider. Stored before it is charged or applied; `applied`
 * says its outcome reached the invoice (a sweeper finishes what a crash left).
 */
export interface Payment {
  id: string;
  organization_id: string;
  customer_id: string;
  external_customer_id: string;
  invoice_id: string;
  invoice_number: string;
  amount_cents: number;
  currency: string;
  type: "manual" | "provider";
  /** the provider's own word for its state (manual: "succeeded") */
  status: string;
  payment_status: PaymentStatus;
  reference: string | null;
  provider: { code: string; type: string; customer_id: string | null } | null;
  provider_payment_id: string | null;
  /** Lago's next_action ({} when none): what the customer must do for a processing payment */
  next_action: NextAction | NoAction;
  /** a provider payment's attempt for its invoice (1, 2, … with retries) */
  attempt: number;
  /** its current outcome was applied to the invoice */
  applied: boolean;
  paid_at: string | null;
  /**
   * the part of this succeeded payment its invoice could not take (paid or credited meanwhile):
   * recorded once, with its `payment.overpaid` event, then given back (0 or absent: none)
   */
  overpaid_amount_cents?: number;
  overpayment_status?: OverpaymentStatus | null;
  created_at: Date;
  updated_at: Date;
}

/** What a provider asks of the customer to complete a charge (Lago's next_action): go to a page, then come back. */
export interface NextAction {
  type: "redirect_to_url";
  redirect_to_url: { url: string; return_url: string };
}

/** Lago's next_action when nothing is asked of the customer: {}. */
export type NoAction = { type?: undefined };

/** The action asked of the customer, or null when none. */
export const actionAsked = (action: NextAction | NoAction | null | undefined): NextAction | null =>
  action?.type === "redirect_to_url" ? action : null;

export type PaymentStatus = "pending" | "processing" | "succeeded" | "failed";

/** The outcome the invoice is told of (pending: nothing yet). */
export const invoiceOutcome = (p: Pick<Payment, "payment_status">): "succeeded" | "failed" | "processing" | null =>
  p.payment_status === "pending" ? null : p.payment_status;

/**
 * How giving an overpaid part back stands: a refund through the provider (pending, done, refused),
 * or `to_give_back`: the provider cannot refund, an operator gives it back.
 */
export type OverpaymentStatus = "refund_pending" | "refunded" | "refund_failed" | "to_give_back";

/** A payment outcome after which nothing more happens to the charge (the invoice is free for another payment). */
export const isFinal = (p: Pick<Payment, "payment_status">): boolean =>
  p.payment_status === "succeeded" || p.payment_status === "failed";
