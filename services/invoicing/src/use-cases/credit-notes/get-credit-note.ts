import { AppError } from "@billing/errors";
import type { CreditNote } from "../../domain/credit-note";
import type { CreditNoteDeps } from "./deps";

/** GET /credit_notes/{id}: one of the organization's notes. */
export async function getCreditNote(
  deps: Pick<CreditNoteDeps, "creditNotes">,
  organizationId: string,
  id: string,
): Promise<CreditNote> {
  const note = await deps.creditNotes.find(organizationId, id);
  if (!note) throw AppError.notFound("credit_note");
  return note;
}
