import { AppError } from "@billing/errors";
import { LOST_RACE, retryOnLostRace } from "@billing/mongo";
import { laterOf } from "../../domain/compose-invoice";
import type { CreditNote, RefundStatus } from "../../domain/credit-note";
import { creditNoteUpdatedEvents } from "../../events/credit-note-events";
import type { CreditNoteDeps } from "./deps";

const REFUND_STATUSES: readonly RefundStatus[] = ["pending", "succeeded", "failed"];

/** PUT /credit_notes/{id}: its refund status (as Lago, on any note); the same status again changes nothing. */
export async function updateCreditNote(
  deps: Pick<CreditNoteDeps, "clock" | "creditNotes" | "publishCreditNote">,
  organizationId: string,
  id: string,
  refundStatus: string,
): Promise<CreditNote> {
  if (!REFUND_STATUSES.includes(refundStatus as RefundStatus))
    throw AppError.validation({ refund_status: ["value_is_invalid"] });
  return retryOnLostRace(`update of credit note ${id}`, async () => {
    const note = await deps.creditNotes.find(organizationId, id);
    if (!note) throw AppError.notFound("credit_note");
    if (note.refund_status === refundStatus) return note;
    const now = deps.clock.now();
    const set: Partial<CreditNote> = {
      refund_status: refundStatus as RefundStatus,
      refunded_at: refundStatus === "succeeded" ? now : note.refunded_at,
      updated_at: laterOf(now, note.updated_at),
    };
    const changed = { ...note, ...set, revision: note.revision + 1 };
    const events = creditNoteUpdatedEvents(changed, now);
    if (!(await deps.creditNotes.change(note, set, events))) return LOST_RACE;
    await deps.publishCreditNote(note.id, events);
    return changed;
  });
}
