import type { PaymentDeps } from "../deps";
import { settleAttempt } from "./charge-invoice";

/**
 * The sweeper's work: payments a crash left between their charge and their invoice (still
 * pending, or with an outcome not applied) are finished, each once. Answers how many.
 */
export async function finishInterrupted(deps: PaymentDeps, limit = 200): Promise<number> {
  const left = await deps.payments.unapplied(limit);
  for (const payment of left) await settleAttempt(deps, payment);
  return left.length;
}
