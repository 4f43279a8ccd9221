import { startPeriodic, type Periodic } from "@billing/runtime";
import type { Logger } from "@billing/logger";
import type { WalletDeps } from "../use-cases/deps";
import { expireDueWallets } from "../use-cases/wallets/expire-due-wallets";

/** Ordinary organizations' wallet expirations, on the system clock: the same use case a test clock's RunDue runs. */
export function startExpirationScheduler(deps: WalletDeps, intervalMs: number, logger: Logger): Periodic {
  return startPeriodic("wallet expiration", async () => (await expireDueWallets(deps)) > 0, { intervalMs, logger, maxRounds: 10 });
}
