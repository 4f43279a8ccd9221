import { atFrozenTime } from "@billing/clock";
import type { ScheduledWorkRpc } from "@billing/contracts";
import { AppError } from "@billing/errors";
import type { Handlers } from "@billing/grpc";
import type { WalletDeps } from "../use-cases/deps";
import { expireDueWallets } from "../use-cases/wallets/expire-due-wallets";

const instant = (value: string, field: string) => {
  const at = new Date(value);
  if (!value || Number.isNaN(at.getTime())) throw AppError.validation({ [field]: ["invalid_date"] });
  return at;
};

/** billing.common.v1.ScheduledWorkService: the wallet service's time-driven work (expirations) for one sandbox organization. */
export function scheduledWorkHandlers(deps: WalletDeps): Handlers<ScheduledWorkRpc> {
  return {
    NextDue: async (req) => {
      const due = await deps.wallets.nextExpirationAfter(req.organization_id, instant(req.after, "after"));
      return due ? { due_at: due.toISOString() } : {};
    },
    RunDue: async (req) => ({ done: await atFrozenTime(instant(req.at, "at"), () => expireDueWallets(deps, req.organization_id)) }),
  };
}
