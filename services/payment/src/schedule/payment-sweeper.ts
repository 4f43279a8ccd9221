import type { Logger } from "@billing/logger";
import { startPeriodic, type Periodic } from "@billing/runtime";
import type { PaymentDeps } from "../use-cases/deps";
import { finishInterrupted } from "../use-cases/payments/finish-interrupted";

/** Finishes, on an interval, the payments a crash left between their charge and their invoice. */
export function startPaymentSweeper(deps: PaymentDeps, intervalMs: number, logger: Logger): Periodic {
  return startPeriodic("interrupted payments", async () => (await finishInterrupted(deps)) > 0, {
    intervalMs,
    logger,
    maxRounds: 10,
  });
}
