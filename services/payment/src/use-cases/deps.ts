import type { Clock } from "@billing/clock";
import type { PaymentRepository } from "../persistence/payment-repository";
import type { Customers } from "../peers/customers";
import type { Invoicing } from "../peers/invoicing";
import type { PaymentProvider } from "../peers/payment-provider";

/** What the payment service's use cases work with. */
export interface PaymentDeps {
  payments: PaymentRepository;
  invoicing: Invoicing;
  customers: Customers;
  /** by provider type (`sandbox` built in) */
  providers: ReadonlyMap<string, PaymentProvider>;
  clock: Clock;
  /** where a customer returns after a provider's action */
  returnUrl: string;
}
