import type { CreditNote } from "../../domain/credit-note";
import type { Invoice } from "../../domain/invoice";
import type { CreditNoteDeps } from "./deps";

type CreditWalletDeps = Pick<CreditNoteDeps, "creditInvoiceWallets" | "invoices">;

/** A credit invoice's wallet as a credit note on it is checked against (null: none). */
export async function creditWalletOf(deps: CreditWalletDeps, invoice: Invoice) {
  if (invoice.invoice_type !== "credit" || !invoice.wallet_transaction_id) return null;
  return deps.creditInvoiceWallets.of(invoice.organization_id, invoice.wallet_transaction_id);
}

/**
 * A credit note refunding a credit (top-up) invoice voids as much of the wallet's credits (Lago's
 * void_prepaid_credit): the customer gets the money back, so not the credits too. Once per note at
 * the wallet service (its transaction id derives from the note), so this runs right after the note
 * is stored and again from its credit_note.created event (after a crash) without voiding twice.
 */
export async function voidCreditInvoiceCredits(
  deps: CreditWalletDeps,
  note: Pick<CreditNote, "id" | "organization_id" | "invoice_id" | "refund_amount_cents">,
): Promise<void> {
  if (note.refund_amount_cents <= 0) return;
  const invoice = await deps.invoices.find(note.organization_id, note.invoice_id, ["finalized", "voided"]);
  if (!invoice || invoice.invoice_type !== "credit" || !invoice.wallet_transaction_id) return;
  const wallet = await deps.creditInvoiceWallets.of(invoice.organization_id, invoice.wallet_transaction_id);
  if (wallet)
    await deps.creditInvoiceWallets.voidCredits(
      invoice.organization_id,
      wallet.wallet_id,
      note.id,
      note.refund_amount_cents,
    );
}
