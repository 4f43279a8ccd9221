import { AppError } from "@billing/errors";
import { LOST_RACE, retryOnLostRace } from "@billing/mongo";
import { laterOf } from "../../domain/compose-invoice";
import type { CreditNote } from "../../domain/credit-note";
import { creditNoteUpdatedEvents } from "../../events/credit-note-events";
import type { CreditNoteDeps } from "./deps";

/**
 * PUT /credit_notes/{id}/void: what is left of its credit can no longer be used (balance 0,
 * credit_status voided). Nothing left → 405 no_voidable_amount. Guarded by the note's revision: an
 * invoice consuming the balance at the same moment either takes it first (the void then voids what
 * is left) or finds the note voided and takes nothing.
 */
export async function voidCreditNote(
  deps: Pick<CreditNoteDeps, "clock" | "creditNotes" | "publishCreditNote">,
  organizationId: string,
  id: string,
): Promise<CreditNote> {
  return retryOnLostRace(`void of credit note ${id}`, async () => {
    const note = await deps.creditNotes.find(organizationId, id);
    if (!note) throw AppError.notFound("credit_note");
    if (note.credit_status === "voided" || note.balance_amount_cents <= 0)
      throw new AppError("not_allowed", "no_voidable_amount");
    const now = deps.clock.now();
    const set: Partial<CreditNote> = {
      credit_status: "voided",
      balance_amount_cents: 0,
      voided_at: now,
      updated_at: laterOf(now, note.updated_at),
    };
    const changed = { ...note, ...set, revision: note.revision + 1 };
    const events = creditNoteUpdatedEvents(changed, now);
    if (!(await deps.creditNotes.change(note, set, events))) return LOST_RACE;
    await deps.publishCreditNote(note.id, events);
    return changed;
  });
}
