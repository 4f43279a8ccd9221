import type { Wallet } from "../../domain/wallet";
import type { WalletDeps } from "../deps";

/** The customer's active wallets with credits left, in the order an invoice takes them (priority, then creation). */
export function listActiveWallets(deps: WalletDeps, organizationId: string, customerId: string): Promise<Wallet[]> {
  return deps.wallets.activeOfCustomer(organizationId, customerId);
}
