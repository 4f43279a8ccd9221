import type { Clock } from "@billing/clock";
import type { Envelope } from "@billing/bus";
import type { Payment } from "../domain/payment";
import type { InvoiceClaims } from "../persistence/invoice-claims";
import type { PaymentSettings } from "../persistence/payment-settings";
import type { PaymentRequestRepository } from "../persistence/payment-request-repository";
import type { PaymentRepository } from "../persistence/payment-repository";
import type { Customers } from "../peers/customers";
import type { Invoicing } from "../peers/invoicing";
import type { PaymentProvider } from "../peers/payment-provider";

/** What the payment service's use cases work with. */
export interface PaymentDeps {
  payments: PaymentRepository;
  /** who works on each invoice's due amount: one payment at a time */
  claims: InvoiceClaims;
  /** each organization's payment settings (what is done with overpayments) */
  settings: PaymentSettings;
  invoicing: Invoicing;
  customers: Customers;
  /** by provider type (`sandbox` built in) */
  providers: ReadonlyMap<string, PaymentProvider>;
  clock: Clock;
  /** where a customer returns after a provider's action */
  returnUrl: string;
  /** Publishes a payment's events now and clears them from its outbox (the relay sends what fails). */
  publishPayment(paymentId: string, events: readonly Envelope[]): Promise<void>;
  /**
   * Starts giving a payment's recorded overpayment back (the refunds' part, wired beside): its
   * refund through the provider; the refund sweeper asks again whatever this one did not finish.
   */
  giveBack?(payment: Payment): Promise<void>;
}

/** What the payment requests' use cases work with besides. */
export interface PaymentRequestDeps extends PaymentDeps {
  paymentRequests: PaymentRequestRepository;
  /** Publishes a request's events now and clears them from its outbox (the relay sends what fails). */
  publishRequest(requestId: string, events: Envelope | readonly Envelope[]): Promise<void>;
}
