import { Decimal, minDecimal } from "../decimal";
import { fdiv, fromFloat } from "../lago-float";
import { instantMs } from "../periods/timezone";
import type { CreditNoteInput, WorkingFee } from "./types";

export interface CreditNoteCredit {
  credit_note_id: string;
  amount_cents: number;
  balance_amount_cents: number;
  consumed: boolean;
}

/**
 * Available credit notes, oldest first, each consuming min(balance, what is left of the total),
 * after taxes. Each credit is spread on the fees pro rata of their remaining after-tax amount.
 */
export function applyCreditNotes(fees: WorkingFee[], creditNotes: readonly CreditNoteInput[], totalCents: number): CreditNoteCredit[] {
  const time = (c: CreditNoteInput) => (c.created_at == null ? 0 : instantMs(c.created_at));
  const ordered = creditNotes.map((c, i) => ({ c, i })).sort((a, b) => time(a.c) - time(b.c) || a.i - b.i);
  let remaining = totalCents;
  const credits: CreditNoteCredit[] = [];
  for (const { c } of ordered) {
    if (remaining <= 0) break;
    const amount = Math.min(c.balance_amount_cents, remaining);
    if (amount <= 0) continue;
    for (const fee of fees) {
      const afterTax = fee.amountCents.minus(fee.preciseCoupons).plus(fee.taxesAmountCents);
      const share = fromFloat(fdiv(new Decimal(amount).times(afterTax.minus(fee.preciseCreditNotes)), remaining));
      fee.preciseCreditNotes = minDecimal(fee.preciseCreditNotes.plus(share), afterTax).toDecimalPlaces(5);
    }
    remaining -= amount;
    const balance = c.balance_amount_cents - amount;
    credits.push({ credit_note_id: c.id, amount_cents: amount, balance_amount_cents: balance, consumed: balance === 0 });
  }
  return credits;
}
