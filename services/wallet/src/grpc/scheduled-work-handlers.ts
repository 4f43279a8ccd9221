import { atFrozenTime } from "@billing/clock";
import type { ScheduledWorkRpc } from "@billing/contracts";
import { instantOf as instant, type Handlers } from "@billing/grpc";
import type { WalletDeps } from "../use-cases/deps";
import { expireDueWallets } from "../use-cases/wallets/expire-due-wallets";
import { fireDueRules } from "../use-cases/wallets/fire-due-rules";

/** billing.common.v1.ScheduledWorkService: the wallet service's time-driven work (expirations, then recurring top-ups) for one sandbox organization. */
export function scheduledWorkHandlers(deps: WalletDeps): Handlers<ScheduledWorkRpc> {
  return {
    NextDue: async (req) => {
      const after = instant(req.after, "after");
      const times = (
        await Promise.all([
          deps.wallets.nextExpirationAfter(req.organization_id, after),
          deps.wallets.nextRuleAfter(req.organization_id, after),
        ])
      )
        .filter((t): t is Date => t !== null)
        .map((t) => t.getTime());
      return times.length ? { due_at: new Date(Math.min(...times)).toISOString() } : {};
    },
    // a wallet that ends at an instant takes no top-up at it
    RunDue: async (req) => ({
      done: await atFrozenTime(
        instant(req.at, "at"),
        async () =>
          (await expireDueWallets(deps, req.organization_id)) + (await fireDueRules(deps, req.organization_id)),
      ),
    }),
  };
}
