import type { NextAction, NoAction } from "../domain/payment";

/**
 * A payment provider as the payment service uses it. An adapter (Stripe, Adyen, …) is one module
 * implementing this; the service never knows which one it talks to. Every charge carries an
 * idempotency key: the provider charges once per key, and answers a repeated key with the first
 * charge (what makes a crash between charge and record harmless).
 */
export interface PaymentProvider {
  readonly type: string;
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /** The customer completed the action the charge of this key asked for (a redirect's return). */
  confirm(idempotencyKey: string): Promise<ChargeResult>;
  /** Pays back part or all of a charge, once per key (a repeated key answers the first refund). Absent: the provider cannot refund. */
  refund?(request: RefundRequest): Promise<RefundResult>;
}

export interface RefundRequest {
  idempotencyKey: string;
  /** the charge refunded (its provider id) */
  providerPaymentId: string;
  amountCents: number;
  currency: string;
  providerCustomerId: string | null;
}

export interface RefundResult {
  providerRefundId: string | null;
  refundStatus: "succeeded" | "failed" | "pending";
  /** why it failed, as the provider said */
  error: { message: string; code: string | null } | null;
}

export interface ChargeRequest {
  idempotencyKey: string;
  amountCents: number;
  currency: string;
  providerCustomerId: string | null;
  /** where the customer comes back to after an action */
  returnUrl: string;
}

export interface ChargeResult {
  providerPaymentId: string;
  /** the provider's own status word */
  status: string;
  paymentStatus: "succeeded" | "failed" | "processing";
  /** for processing: the action the customer must take (Lago's next_action) */
  nextAction: NextAction | NoAction;
}
