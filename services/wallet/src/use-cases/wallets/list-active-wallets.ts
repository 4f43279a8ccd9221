import type { Wallet } from "../../domain/wallet";
import type { WalletDeps } from "../deps";

/** The customer's active wallets with credits left, in the order an invoice takes them (priority, then creation). */
export async function listActiveWallets(
  deps: WalletDeps,
  organizationId: string,
  customerId: string,
): Promise<Wallet[]> {
  return (await deps.wallets.activeOfCustomer(organizationId, customerId)).filter((w) => w.balance_cents > 0);
}
