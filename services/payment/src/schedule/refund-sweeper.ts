import type { Logger } from "@billing/logger";
import { startPeriodic, type Periodic } from "@billing/runtime";
import type { RefundDeps } from "../use-cases/refunds/deps";
import { settleUnsettledRefunds } from "../use-cases/refunds/refund-credit-note";
import { refundPendingOverpayments } from "../use-cases/refunds/refund-overpayment";

/**
 * Asks the providers again, on an interval, about refunds they left pending (a real provider's
 * refund may settle days later; each is asked at most once per `recheckMs`), and finishes outcomes a
 * crash kept from their note: one page of them per interval.
 */
export function startRefundSweeper(
  deps: RefundDeps,
  options: { intervalMs: number; recheckMs: number; logger: Logger },
): Periodic {
  return startPeriodic(
    "pending refunds",
    async () => {
      await refundPendingOverpayments(deps);
      await settleUnsettledRefunds(deps, { recheckMs: options.recheckMs });
    },
    options,
  );
}
