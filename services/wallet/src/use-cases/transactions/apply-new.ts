import { appliedAtOnce } from "../../domain/wallet-transactions";
import type { WalletTransaction } from "../../domain/wallet";
import type { WalletDeps } from "../deps";

/** Stores new transactions, then applies those that settle at once, in order; answers them as stored. */
export async function applyNew(deps: WalletDeps, transactions: readonly WalletTransaction[]): Promise<WalletTransaction[]> {
  await deps.wallets.insertTransactions(transactions);
  const stored: WalletTransaction[] = [];
  for (const tx of transactions) stored.push(appliedAtOnce(tx) ? await deps.ledger.apply(tx.id, deps.clock.now()) : tx);
  return stored;
}
