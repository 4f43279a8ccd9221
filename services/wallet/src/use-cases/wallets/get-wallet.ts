import { AppError } from "@billing/errors";
import type { Wallet } from "../../domain/wallet";
import type { WalletDeps } from "../deps";

/** GET /wallets/{svc_id}: another organization's wallet is unknown here (404 wallet_not_found). */
export async function getWallet(deps: WalletDeps, organizationId: string, walletId: string): Promise<Wallet> {
  const wallet = await deps.wallets.find(organizationId, walletId);
  if (!wallet) throw AppError.notFound("wallet");
  return wallet;
}
