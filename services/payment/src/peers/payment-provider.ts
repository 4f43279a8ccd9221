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
  nextAction: Record<string, unknown>;
}
