import { terminationOf } from "../../domain/wallet-transactions";
import type { Wallet } from "../../domain/wallet";
import type { WalletDeps } from "../deps";
import { getWallet } from "./get-wallet";

/**
 * DELETE /wallets/{svc_id}: the wallet ends and what is left of it is voided, as ONE ledger
 * movement (its id is derived from the wallet's, so a retry or a second call applies nothing more
 * and answers the terminated wallet).
 */
export async function terminateWallet(deps: WalletDeps, organizationId: string, walletId: string): Promise<Wallet> {
  const wallet = await getWallet(deps, organizationId, walletId);
  if (wallet.status === "terminated") return wallet;
  const termination = terminationOf(wallet, deps.clock.now());
  await deps.wallets.insertTransactions([termination]);
  await deps.ledger.apply(termination.id, deps.clock.now());
  return (await deps.wallets.find(organizationId, walletId))!;
}
