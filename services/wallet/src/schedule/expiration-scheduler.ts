import { startPeriodic, type Periodic } from "@billing/runtime";
import type { Logger } from "@billing/logger";
import type { WalletDeps } from "../use-cases/deps";
import { expireDueWallets } from "../use-cases/wallets/expire-due-wallets";
import { fireDueRules } from "../use-cases/wallets/fire-due-rules";

/** Ordinary organizations' wallet expirations and recurring top-ups, on the system clock: the same use cases a test clock's RunDue runs. */
export function startExpirationScheduler(deps: WalletDeps, intervalMs: number, logger: Logger): Periodic {
  return startPeriodic(
    "wallet expirations and top-ups",
    async () => (await expireDueWallets(deps)) + (await fireDueRules(deps)) > 0,
    { intervalMs, logger, maxRounds: 10 },
  );
}
