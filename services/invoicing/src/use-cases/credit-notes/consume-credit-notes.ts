import type { CreditNoteCredit, CreditNoteInput } from "@billing/pricing";
import { consumedBy, type CreditNote } from "../../domain/credit-note";
import type { Invoice, PlannedCreditNote } from "../../domain/invoice";
import { creditNoteUpdatedEvents } from "../../events/credit-note-events";
import type { CreditNoteDeps } from "./deps";

type ConsumeDeps = Pick<CreditNoteDeps, "clock" | "creditNotes" | "publishCreditNote">;

/** A note with a balance, as the pricing library takes it (oldest first by its creation). */
export const creditNoteInput = (note: CreditNote): CreditNoteInput => ({
  id: note.id,
  balance_amount_cents: note.balance_amount_cents,
  created_at: note.created_at,
});

/** The shares the pricing library gave, with what the invoice shows of each note. */
export function plannedCreditNotes(
  notes: readonly CreditNote[],
  credits: readonly CreditNoteCredit[],
): PlannedCreditNote[] {
  const byId = new Map(notes.map((n) => [n.id, n]));
  return credits
    .filter((c) => c.amount_cents > 0)
    .map((c) => {
      const note = byId.get(c.credit_note_id)!;
      return {
        credit_note_id: note.id,
        number: note.number,
        amount_cents: c.amount_cents,
        created_at: note.created_at,
      };
    });
}

/**
 * Takes the planned credit note shares (step 2 of a finalization, after the coupons): each note
 * records the invoice's share in the same conditional write as its new balance (guarded by its
 * revision), so a retried or resumed finalization finds its share recorded and takes nothing
 * twice. A note voided or consumed by another invoice meanwhile gives what it has left (maybe
 * nothing). Returns what each note gave, in the plan's order.
 */
export async function consumeCreditNotes(
  deps: ConsumeDeps,
  invoice: Invoice,
  planned: readonly PlannedCreditNote[],
): Promise<PlannedCreditNote[]> {
  const given: PlannedCreditNote[] = [];
  for (const share of planned) {
    const amount = await consumeOne(deps, invoice.id, share);
    if (amount > 0) given.push({ ...share, amount_cents: amount });
  }
  return given;
}

async function consumeOne(deps: ConsumeDeps, invoiceId: string, share: PlannedCreditNote): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const note = await deps.creditNotes.findById(share.credit_note_id);
    if (!note) return 0;
    const recorded = note.consumptions.find((c) => c.invoice_id === invoiceId);
    if (recorded) return recorded.amount_cents;
    if (note.credit_status !== "available") return 0;
    const amount = Math.min(share.amount_cents, note.balance_amount_cents);
    if (amount <= 0) return 0;
    const now = deps.clock.now();
    const set = consumedBy(note, invoiceId, amount, now);
    const events = creditNoteUpdatedEvents({ ...note, ...set }, now);
    if (await deps.creditNotes.change(note, set, events)) {
      await deps.publishCreditNote(note.id, events);
      return amount;
    }
  }
  throw new Error(
    `credit note ${share.credit_note_id}: its balance kept changing while invoice ${invoiceId} took its share`,
  );
}
