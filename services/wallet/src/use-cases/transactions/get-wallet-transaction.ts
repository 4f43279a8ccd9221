import { AppError } from "@billing/errors";
import type { WalletTransaction } from "../../domain/wallet";
import type { WalletDeps } from "../deps";

/** GET /wallet_transactions/{svc_id}: another organization's is unknown here (404 wallet_transaction_not_found). */
export async function getWalletTransaction(
  deps: WalletDeps,
  organizationId: string,
  id: string,
): Promise<WalletTransaction> {
  const tx = await deps.wallets.findTransaction(organizationId, id);
  if (!tx || tx.amount_cents === 0) throw AppError.notFound("wallet_transaction");
  return tx;
}
