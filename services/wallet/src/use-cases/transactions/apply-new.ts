import { centsToCredits } from "@billing/pricing";
import { appliedAtOnce } from "../../domain/wallet-transactions";
import { sectionResourceOf, type Wallet, type WalletTransaction } from "../../domain/wallet";
import type { WalletDeps } from "../deps";

/**
 * Stores new transactions of a wallet, applies those that settle at once, in order, and has each
 * purchase invoiced (a `credit` invoice; the purchase settles when that invoice is paid). A
 * purchase whose invoice cannot be made fails (and the request with it): nothing is left pending
 * that nobody would ever pay. Answers the transactions as stored.
 */
export async function applyNew(
  deps: WalletDeps,
  wallet: Wallet,
  transactions: readonly WalletTransaction[],
): Promise<WalletTransaction[]> {
  await deps.wallets.insertTransactions(transactions);
  const stored: WalletTransaction[] = [];
  for (const tx of transactions) {
    if (appliedAtOnce(tx)) {
      stored.push(await deps.ledger.apply(tx.id, deps.clock.now(), wallet.id));
      continue;
    }
    try {
      const invoiceId = await deps.invoicing.creditInvoice(wallet.organization_id, {
        customer_id: wallet.customer_id,
        wallet_transaction_id: tx.id,
        wallet_id: wallet.id,
        name: tx.name,
        credits: centsToCredits(tx.amount_cents, wallet.rate_amount, wallet.currency),
        rate_amount: wallet.rate_amount,
        amount_cents: tx.amount_cents,
        currency: wallet.currency,
        section_resource: sectionResourceOf(tx, wallet),
      });
      await deps.wallets.setInvoice(tx.id, invoiceId);
      stored.push({ ...tx, invoice_id: invoiceId });
    } catch (err) {
      await deps.wallets.failPending(tx.id, "invoice_not_created", deps.clock.now());
      throw err;
    }
  }
  return stored;
}
