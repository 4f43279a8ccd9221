import type { Envelope } from "@billing/bus";
import type { CreditNotes } from "../../peers/credit-notes";
import type { RefundRepository } from "../../persistence/refund-repository";
import type { PaymentDeps } from "../deps";

/** What the refunds' use cases work with besides the payments'. */
export interface RefundDeps extends PaymentDeps {
  refunds: RefundRepository;
  creditNotes: CreditNotes;
  /** Publishes a refund's events now and clears them from its outbox (the relay sends what fails). */
  publishRefund(refundId: string, events: readonly Envelope[]): Promise<void>;
}
