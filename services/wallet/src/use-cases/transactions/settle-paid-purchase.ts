import type { WalletTransaction } from "../../domain/wallet";
import type { WalletDeps } from "../deps";

/** Rounds a purchase is revived and applied, at most, against failures of its earlier payment handled meanwhile. */
const MAX_ROUNDS = 5;

/**
 * A purchase whose credit invoice is paid is credited to its wallet exactly once, whatever order
 * its invoice's payment statuses arrive in: pending, it is applied (the ledger settles it once,
 * however often asked); failed because an earlier payment failed (retried, paid by hand since), or
 * because its invoice seemed not to be made (invoicing answered past the deadline, then made it), it
 * is made pending again and applied. A late `failed` handled between the two (a redelivery, an
 * out-of-order event) fails it again: it is revived again, so the paid purchase ends settled. Once
 * settled, nothing fails it (failPending leaves a transaction with a sequence alone).
 */
export async function settlePaidPurchase(
  deps: WalletDeps,
  purchase: WalletTransaction,
  invoiceId: string,
): Promise<WalletTransaction> {
  let tx = purchase;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    if (tx.status === "failed" && !(await deps.wallets.reviveForPaidInvoice(tx.id, invoiceId, deps.clock.now()))) {
      const now = await deps.wallets.findTransaction(tx.organization_id, tx.id);
      // failed for another reason (the wallet ended): the ledger's refusal stands
      if (!now || now.status === "failed") return now ?? tx;
    }
    tx = await deps.ledger.apply(tx.id, deps.clock.now(), tx.wallet_id);
    if (tx.status === "settled" || tx.failure !== "payment_failed") return tx;
  }
  throw new Error(`purchase ${purchase.id} kept failing while its invoice is paid`);
}
