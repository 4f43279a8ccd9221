import type { PageRequest } from "@billing/mongo";
import type { CreditNoteFilter } from "../../persistence/credit-note-repository";
import type { CreditNoteDeps } from "./deps";

/** GET /credit_notes: the organization's notes, newest first, Lago's filters. */
export const listCreditNotes = (
  deps: Pick<CreditNoteDeps, "creditNotes">,
  organizationId: string,
  filter: CreditNoteFilter,
  page: PageRequest,
) => deps.creditNotes.list(organizationId, filter, page);
