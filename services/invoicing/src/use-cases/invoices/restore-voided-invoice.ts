import type { Invoice } from "../../domain/invoice";
import type { InvoiceDeps } from "./deps";

/**
 * What a voided invoice consumed, given back as Lago's void does (Invoices::VoidService):
 *   - every coupon credit it took, always (the applied coupon's remainder, period or status);
 *   - the prepaid credits it took from wallets, only when the void issued no credit note (with a
 *     credit note, the note is worth the whole invoice, prepaid credits included, so the wallets
 *     are not credited a second time), and only to wallets still active;
 *   - credit notes' balances it consumed are not restored (Lago does not: with a credit note the
 *     void's note is worth them; without one they stay consumed).
 * Each give-back is idempotent at its owner (keyed by the invoice), so this runs right after the
 * void and again from the invoice.voided event (after a crash, or on a redelivery) without giving
 * anything back twice.
 */
export async function restoreVoidedInvoice(
  deps: Pick<InvoiceDeps, "voidRecredits">,
  invoice: Pick<Invoice, "id" | "organization_id" | "status" | "credits" | "amounts"> & {
    voided_with_credit_note?: boolean;
  },
): Promise<void> {
  // voided before voids gave anything back (no voided_with_credit_note): left as it was, so that a
  // new consumer replaying old invoice.voided events moves no money retroactively
  if (invoice.status !== "voided" || invoice.voided_with_credit_note === undefined) return;
  for (const credit of invoice.credits) {
    if (credit.applied_coupon_id)
      await deps.voidRecredits.appliedCoupon(invoice.organization_id, credit.applied_coupon_id, invoice.id);
  }
  if (!invoice.voided_with_credit_note && invoice.amounts.prepaid_credit_amount_cents > 0) {
    await deps.voidRecredits.wallets(invoice.organization_id, invoice.id);
  }
}
