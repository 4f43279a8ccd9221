import type { CreditNoteRpc } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import { pageMeta, pageRequestOf } from "@billing/mongo";
import type { CreditNote } from "../domain/credit-note";
import type { CreditNoteDeps } from "../use-cases/credit-notes/deps";
import { createCreditNote } from "../use-cases/credit-notes/create-credit-note";
import { estimateCreditNoteOf } from "../use-cases/credit-notes/estimate-credit-note";
import { getCreditNote } from "../use-cases/credit-notes/get-credit-note";
import { listCreditNotes } from "../use-cases/credit-notes/list-credit-notes";
import { updateCreditNote } from "../use-cases/credit-notes/update-credit-note";
import { voidCreditNote } from "../use-cases/credit-notes/void-credit-note";
import { creditNoteFilterOf, creditNoteMessage, estimateMessage, feeMessagesOf } from "./credit-note-messages";

const items = (list: ReadonlyArray<{ fee_id: string; amount_cents: number | string }>) =>
  list.map((i) => ({ fee_id: i.fee_id, amount_cents: Number(i.amount_cents) }));

type CreditNoteRpcs =
  | "CreateCreditNote"
  | "EstimateCreditNote"
  | "GetCreditNote"
  | "ListCreditNotes"
  | "UpdateCreditNote"
  | "VoidCreditNote";

/**
 * billing.invoicing.v1.CreditNoteService, its credit notes: proto in, use case, proto out (always
 * within the caller's organization). Its RPCs on invoices (void, regenerate, delete a draft, one-off)
 * are served by invoiceOperationHandlers (invoice-handlers.ts).
 */
export function creditNoteHandlers(deps: CreditNoteDeps): Pick<Handlers<CreditNoteRpc>, CreditNoteRpcs> {
  /** The notes' messages, each with the fees of its invoice (one read for all their invoices). */
  const messages = async (notes: readonly CreditNote[]) => {
    const invoices = await deps.invoices.findByIds([...new Set(notes.map((n) => n.invoice_id))]);
    const fees = new Map(invoices.map((i) => [i.id, feeMessagesOf(i)]));
    return notes.map((n) =>
      creditNoteMessage(n, fees.get(n.invoice_id) ?? new Map(), deps.creditNoteFileUrl?.(n) ?? null),
    );
  };
  const reply = async (note: CreditNote) => ({ credit_note: (await messages([note]))[0]! });
  return {
    CreateCreditNote: async (req) =>
      reply(
        await createCreditNote(deps, req.organization_id, req.invoice_id, {
          reason: req.reason ?? null,
          description: req.description ?? null,
          credit_amount_cents: Number(req.credit_amount_cents),
          refund_amount_cents: Number(req.refund_amount_cents),
          offset_amount_cents: Number(req.offset_amount_cents),
          items: items(req.items),
        }),
      ),
    EstimateCreditNote: async (req) => ({
      estimated_credit_note: estimateMessage(
        await estimateCreditNoteOf(deps, req.organization_id, req.invoice_id, items(req.items)),
      ),
    }),
    GetCreditNote: async (req) => reply(await getCreditNote(deps, req.organization_id, req.id)),
    ListCreditNotes: async (req) => {
      const page = pageRequestOf(req);
      const { items: notes, total } = await listCreditNotes(deps, req.organization_id, creditNoteFilterOf(req), page);
      return { credit_notes: await messages(notes), meta: pageMeta(total, page) };
    },
    UpdateCreditNote: async (req) =>
      reply(await updateCreditNote(deps, req.organization_id, req.id, req.refund_status)),
    VoidCreditNote: async (req) => reply(await voidCreditNote(deps, req.organization_id, req.id)),
  };
}
