import type { PageRequest } from "@billing/mongo";
import type { TransactionFilter } from "../../persistence/wallet-repository";
import type { WalletDeps } from "../deps";
import { getWallet } from "../wallets/get-wallet";

/** GET /wallets/{svc_id}/wallet_transactions: newest first, by status, transaction status and type. */
export async function listWalletTransactions(
  deps: WalletDeps,
  organizationId: string,
  walletId: string,
  filter: TransactionFilter,
  page: PageRequest,
) {
  await getWallet(deps, organizationId, walletId);
  return deps.wallets.listTransactions(organizationId, walletId, filter, page);
}
