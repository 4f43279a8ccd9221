import { AppError } from "@billing/errors";
import { isFinal } from "../../domain/payment";
import type { PaymentDeps } from "../deps";
import { settleAttempt } from "./charge-invoice";

/** A claim is looked at by the sweeper once it has been held this long (system time): its holder is done with it by then, or waits for a customer. */
const CLAIM_CHECK_AFTER_MS = 60_000;

/**
 * The sweeper's work: payments a crash left between their charge and their invoice (still
 * pending, or with an outcome not applied) are finished, each once; and invoices' claims a crash
 * kept held are freed: a holder that was never stored (it died between its claim and its insert),
 * or whose outcome is final and applied. A claim held by a payment still waiting for its customer
 * stays. Answers how many payments it finished.
 */
export async function finishInterrupted(
  deps: PaymentDeps,
  limit = 200,
  claimCheckAfterMs = CLAIM_CHECK_AFTER_MS,
): Promise<number> {
  const left = await deps.payments.unapplied(limit);
  for (const payment of left) {
    // a manual payment its invoice refuses now is discarded by its apply (its client was never answered): the next one goes on
    await settleAttempt(deps, payment).catch((err: unknown) => {
      if (!(err instanceof AppError && err.kind === "unprocessable")) throw err;
    });
  }
  for (const { invoice_id, holder } of await deps.claims.heldSince(new Date(Date.now() - claimCheckAfterMs), limit)) {
    const payment = await deps.payments.findById(holder.id);
    if (!payment || (payment.applied && isFinal(payment))) await deps.claims.release(invoice_id, holder.id);
  }
  return left.length;
}
