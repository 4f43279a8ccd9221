import type { WalletDeps } from "../deps";
import { terminateWallet } from "./terminate-wallet";

/**
 * Wallets past their `expiration_at` end, their remaining credits voided, once each (the
 * termination is one ledger movement keyed by the wallet). One sandbox organization's at its test
 * clock's time, or every ordinary organization's on the system clock. Returns how many ended.
 */
export async function expireDueWallets(deps: WalletDeps, organizationId?: string): Promise<number> {
  let ended = 0;
  for (;;) {
    const due = await deps.wallets.dueExpirations(deps.clock.now(), organizationId);
    for (const wallet of due) {
      await terminateWallet(deps, wallet.organization_id, wallet.id);
      ended++;
    }
    if (due.length < 500) return ended;
  }
}
