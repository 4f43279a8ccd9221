import { Findings, isRecent, type CheckContext, type CheckOutcome } from "../breach";
import type { InvoiceDoc, WalletTransactionDoc } from "../documents";
import { invoiceRecord, wasFinalized } from "./invoice-totals";
import { txRecord } from "./wallet-ledger";

/**
 * top_up_settlement — every paid credit (top-up) invoice's purchase transaction is settled exactly
 * once, and only a paid one is (services/wallet/src/events/invoice-payments.ts settles a purchase
 * when its credit invoice's payment_status becomes succeeded, and fails it when it fails):
 *  - a credit invoice names one purchase (wallet_transaction_id) that exists, is `purchased`
 *    inbound and names the invoice back; no other purchase names the invoice;
 *  - a succeeded credit invoice's purchase is settled, once (its ledger sequence: wallet_ledger
 *    proves a sequence is given once), for the invoice's total;
 *  - a settled purchase's invoice is paid (succeeded). There is no payment-free way to settle a
 *    purchase here: `invoice_requires_successful_payment` holds Lago's credit invoice open until it
 *    is paid, and this platform finalizes it at once but still settles the purchase only on the
 *    payment (services/wallet/README.md); credits given without payment are `granted`
 *    transactions, settled at once, which are not purchases and wallet_ledger covers;
 *  - every settled purchase has its credit invoice.
 * Invoices and transactions changed within the grace period are left for the next run (the
 * settlement follows the invoice's payment event).
 */
export function checkTopUpSettlement(
  ctx: CheckContext,
  invoices: readonly InvoiceDoc[],
  transactions: readonly WalletTransactionDoc[],
): CheckOutcome {
  const f = new Findings("top_up_settlement", ctx);
  const txOf = new Map(transactions.map((t) => [t._id, t]));
  const purchasesOf = new Map<string, WalletTransactionDoc[]>();
  for (const t of transactions) {
    if (t.transaction_status === "purchased" && t.invoice_id)
      purchasesOf.set(t.invoice_id, [...(purchasesOf.get(t.invoice_id) ?? []), t]);
  }
  const invoiceOf = new Map(invoices.map((i) => [i._id, i]));

  for (const invoice of invoices) {
    if (invoice.invoice_type !== "credit" || !wasFinalized(invoice)) continue;
    const purchase = invoice.wallet_transaction_id ? txOf.get(invoice.wallet_transaction_id) : undefined;
    if (
      isRecent(ctx, invoice.updated_at) ||
      (purchase && isRecent(ctx, purchase.settled_at ?? purchase.failed_at ?? purchase.created_at))
    ) {
      f.skipped++;
      continue;
    }
    f.checked++;
    const others = (purchasesOf.get(invoice._id) ?? []).filter((t) => t._id !== invoice.wallet_transaction_id);
    if (others.length) {
      f.breach(
        "several_purchases",
        `${others.length + 1} purchases name credit invoice ${invoice._id} (${invoice.number}), which pays for ${String(invoice.wallet_transaction_id)}`,
        [invoiceRecord(invoice), ...others.map(txRecord), ...(purchase ? [txRecord(purchase)] : [])],
      );
    }
    if (
      !purchase ||
      purchase.transaction_status !== "purchased" ||
      purchase.transaction_type !== "inbound" ||
      (purchase.invoice_id && purchase.invoice_id !== invoice._id)
    ) {
      f.breach(
        "purchase_missing",
        `credit invoice ${invoice._id} (${invoice.number}) pays for wallet transaction ${String(invoice.wallet_transaction_id)}, ${purchase ? `a ${purchase.transaction_type} ${purchase.transaction_status} of invoice ${String(purchase.invoice_id)}` : "which does not exist"}`,
        [invoiceRecord(invoice), ...(purchase ? [txRecord(purchase)] : [])],
      );
      continue;
    }
    const paid = invoice.payment_status === "succeeded";
    if (paid && purchase.status !== "settled") {
      f.breach(
        "paid_top_up_not_settled",
        `credit invoice ${invoice._id} (${invoice.number}) is paid, but its purchase ${purchase._id} is ${purchase.status}${purchase.failure ? ` (${purchase.failure})` : ""}: the wallet never received ${purchase.amount_cents}`,
        [invoiceRecord(invoice), txRecord(purchase)],
        { expected: "settled", actual: purchase.status },
      );
    }
    if (purchase.status === "settled" && !paid) {
      f.breach(
        "settled_top_up_not_paid",
        `purchase ${purchase._id} put ${purchase.amount_cents} into wallet ${purchase.wallet_id}, but its credit invoice ${invoice._id} (${invoice.number}) is ${invoice.payment_status}`,
        [invoiceRecord(invoice), txRecord(purchase)],
        { expected: "succeeded", actual: invoice.payment_status },
      );
    }
    if (purchase.status === "settled" && purchase.amount_cents !== invoice.amounts.total_amount_cents) {
      f.breach(
        "top_up_amount_mismatch",
        `purchase ${purchase._id} put ${purchase.amount_cents} into its wallet, its credit invoice ${invoice._id} charged ${invoice.amounts.total_amount_cents}`,
        [invoiceRecord(invoice), txRecord(purchase)],
        { expected: invoice.amounts.total_amount_cents, actual: purchase.amount_cents },
      );
    }
  }

  // a purchase learns its invoice's id after the invoice is made (a crash between leaves it without): found by the invoice's side too
  const creditInvoiceOf = new Map(
    invoices
      .filter((i) => i.invoice_type === "credit" && i.wallet_transaction_id)
      .map((i) => [i.wallet_transaction_id!, i]),
  );
  for (const t of transactions) {
    if (t.transaction_status !== "purchased" || t.status !== "settled") continue;
    if (creditInvoiceOf.has(t._id)) continue;
    f.checked++;
    const named = t.invoice_id ? invoiceOf.get(t.invoice_id) : undefined;
    f.breach(
      "settled_purchase_without_invoice",
      `purchase ${t._id} put ${t.amount_cents} into wallet ${t.wallet_id} without a credit invoice paying for it (invoice ${String(t.invoice_id)})`,
      [txRecord(t), ...(named ? [invoiceRecord(named)] : [])],
    );
  }
  return f.outcome();
}
