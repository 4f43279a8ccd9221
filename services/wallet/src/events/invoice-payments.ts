import { Subjects, type Envelope } from "@billing/bus";
import { eventData, isEvent } from "@billing/contracts";
import type { WalletDeps } from "../use-cases/deps";
import { settlePaidPurchase } from "../use-cases/transactions/settle-paid-purchase";
import { refreshOngoingUsage } from "../use-cases/wallets/refresh-ongoing-usage";

export const INVOICE_PAYMENT_SUBJECTS = [
  Subjects.invoicing.invoicePaymentStatusUpdated,
  Subjects.invoicing.invoiceFinalized,
];

/**
 * billing.invoicing.invoice.finalized of a subscription invoice: its customer's ongoing usage is
 * recomputed (the billed period left it).
 * billing.invoicing.invoice.payment_status_updated of a credit invoice: its purchase settles when
 * the invoice is paid, exactly once whatever the order of statuses (failed then succeeded after a
 * retry or a manual payment, succeeded twice, a late failed: settlePaidPurchase), and fails when
 * the payment fails while it is still pending. Other invoices are not the wallet service's business.
 */
export function invoicePaymentHandler(deps: WalletDeps) {
  return async (envelope: Envelope): Promise<void> => {
    if (!isEvent(envelope, INVOICE_PAYMENT_SUBJECTS)) return;
    const { invoice } = eventData(envelope);
    if (envelope.type === Subjects.invoicing.invoiceFinalized) {
      // a billed period leaves the customer's ongoing usage: its wallets' ongoing balances follow
      if (invoice.invoice_type === "subscription") {
        await refreshOngoingUsage(
          deps,
          envelope.organization_id,
          { customerIds: [invoice.customer.svc_id] },
          envelope.frozen_time ? new Date(envelope.frozen_time) : undefined,
        );
      }
      return;
    }
    const txId = invoice.svc_wallet_transaction_id;
    if (!txId) return;
    const tx = await deps.wallets.findTransaction(envelope.organization_id, txId);
    if (!tx || tx.transaction_status !== "purchased") return;
    if (invoice.payment_status === "succeeded") await settlePaidPurchase(deps, tx, invoice.svc_id);
    else if (invoice.payment_status === "failed")
      await deps.wallets.failPending(tx.id, "payment_failed", deps.clock.now());
  };
}
