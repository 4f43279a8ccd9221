import { AppError } from "@billing/errors";
import { localDateOf } from "@billing/pricing";
import { composeCreditNote, type CreditNote, type CreditNoteRequest } from "../../domain/credit-note";
import { creditNoteCreatedEvents } from "../../events/credit-note-events";
import type { CreditNoteDeps } from "./deps";
import { applyOffset } from "./apply-offset";
import { creditWalletOf, voidCreditInvoiceCredits } from "./void-credit-invoice-credits";

/**
 * POST /credit_notes: a credit note on one of the organization's finalized (or voided) invoices.
 * Its number is the invoice's next (1, 2, …): the id derives from it, so two creators racing on
 * one invoice store one note and the other reads the invoice's notes again and is checked against
 * them (nothing is ever credited beyond what is left). Stored with its events, then published.
 */
export async function createCreditNote(
  deps: Pick<
    CreditNoteDeps,
    | "clock"
    | "copies"
    | "creditInvoiceWallets"
    | "creditNotes"
    | "invoices"
    | "logger"
    | "publish"
    | "publishCreditNote"
  >,
  organizationId: string,
  invoiceId: string,
  request: CreditNoteRequest,
): Promise<CreditNote> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const invoice = await deps.invoices.find(organizationId, invoiceId, ["finalized", "voided", "draft"]);
    if (!invoice) throw AppError.notFound("invoice");
    const notes = await deps.creditNotes.ofInvoice(invoice.id);
    const now = deps.clock.now();
    const customer = (await deps.copies.customer(invoice.customer_id))?.customer ?? invoice.customer;
    const sequence = notes.reduce((n, note) => Math.max(n, note.sequential_id), 0) + 1;
    const creditWallet = await creditWalletOf(deps, invoice);
    const note = composeCreditNote(invoice, notes, request, {
      sequence,
      now,
      customer,
      issuing_date: localDateOf(now, customer.applicable_timezone || "UTC"),
      creditWallet,
    });
    const events = creditNoteCreatedEvents(note, now);
    if (await deps.creditNotes.insert(note, events)) {
      await deps.publishCreditNote(note.id, events);
      await applyOffset(deps, note);
      // a refunded credit invoice: its wallet's credits voided as much (again from credit_note.created after a crash)
      await voidCreditInvoiceCredits(deps, note).catch((err: unknown) =>
        deps.logger.warn(
          { err, credit_note_id: note.id },
          "voiding the refunded credits failed; the credit_note.created consumer retries",
        ),
      );
      return note;
    }
  }
  throw new AppError(
    "unavailable",
    "credit_note_contention",
    undefined,
    `credit notes of invoice ${invoiceId} kept racing`,
  );
}
