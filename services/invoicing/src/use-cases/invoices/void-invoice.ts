import { AppError } from "@billing/errors";
import { LOST_RACE, retryOnLostRace } from "@billing/mongo";
import { localDateOf, proRataItems } from "@billing/pricing";
import { laterOf } from "../../domain/compose-invoice";
import {
  composeCreditNote,
  creditableFeeCents,
  estimateCreditNote,
  type CreditNote,
  type CreditNoteRequest,
} from "../../domain/credit-note";
import type { Invoice } from "../../domain/invoice";
import { creditNoteCreatedEvents } from "../../events/credit-note-events";
import { voidedEvents } from "../../events/invoice-events";
import type { InvoiceDeps } from "./deps";
import { voidCreditNote } from "../credit-notes/void-credit-note";
import { restoreVoidedInvoice } from "./restore-voided-invoice";

type VoidDeps = Pick<
  InvoiceDeps,
  "clock" | "copies" | "creditNotes" | "invoices" | "logger" | "publish" | "publishCreditNote" | "voidRecredits"
>;

export interface VoidRequest {
  generate_credit_note: boolean;
  credit_amount: number;
  refund_amount: number;
}

/**
 * POST /invoices/{id}/void (Lago's VoidService): a finalized invoice becomes `voided`: nothing is
 * due on it any more. With `generate_credit_note`, what the client asks (credit_amount as a
 * balance, refund_amount paid back) is issued first as a credit note over the fees pro rata, and
 * what is left creditable as a note voided at once. A voided invoice (or a draft) → 405
 * not_voidable; amounts beyond what is creditable or refundable → 422 credit_refund_amount.
 * A retry after a crash finds its notes made (each is marked with its part of the void) and
 * finishes the void; the void itself is one conditional write with its event.
 */
export async function voidInvoice(
  deps: VoidDeps,
  organizationId: string,
  id: string,
  request: VoidRequest,
): Promise<Invoice> {
  const invoice = await deps.invoices.find(organizationId, id);
  if (!invoice) throw AppError.notFound("invoice");
  if (invoice.status !== "finalized") throw new AppError("not_allowed", "not_voidable");
  if (request.generate_credit_note) await voidCreditNotes(deps, invoice, request);
  const voided = await retryOnLostRace(`void of invoice ${id}`, async () => {
    const current = await deps.invoices.find(organizationId, id);
    if (!current) throw AppError.notFound("invoice");
    if (current.status !== "finalized") throw new AppError("not_allowed", "not_voidable");
    const now = deps.clock.now();
    const set: Partial<Invoice> = {
      status: "voided",
      voided_at: now,
      voided_with_credit_note: request.generate_credit_note,
      updated_at: laterOf(now, current.updated_at),
    };
    const changed = { ...current, ...set, revision: current.revision + 1 };
    const events = voidedEvents(changed, now);
    if (!(await deps.invoices.changeFinalized(current, { set, events }))) return LOST_RACE;
    await deps.publish(current.id, events);
    return changed;
  });
  // what it consumed given back now (the invoice.voided consumer does it again after a crash: each once)
  await restoreVoidedInvoice(deps, voided).catch((err: unknown) =>
    deps.logger.warn(
      { err, invoice_id: id },
      "void: giving back what the invoice consumed failed; the invoice.voided consumer retries",
    ),
  );
  return voided;
}

/** The void's two notes: what was asked, then the rest voided at once (each once). */
async function voidCreditNotes(deps: VoidDeps, invoice: Invoice, request: VoidRequest): Promise<void> {
  const requested = request.credit_amount + request.refund_amount;
  const remaining = (notes: readonly CreditNote[]) =>
    invoice.fees
      .map((f) => ({ fee_id: f.id, amount_cents: creditableFeeCents(f, notes) }))
      .filter((i) => i.amount_cents > 0);
  const worth = (notes: readonly CreditNote[]) => {
    const items = remaining(notes);
    return items.length ? estimateCreditNote(invoice, notes, items) : null;
  };
  const before = await deps.creditNotes.ofInvoice(invoice.id);
  if (!before.some((n) => n.void_part === "requested")) {
    const estimate = worth(before);
    const creditable = estimate?.max_creditable_amount_cents ?? 0;
    const refundable = estimate?.max_refundable_amount_cents ?? 0;
    if (request.credit_amount > creditable || request.refund_amount > refundable || requested > creditable) {
      throw AppError.validation({ credit_refund_amount: ["total_amount_exceeds_invoice_amount"] });
    }
    if (requested > 0) {
      await issue(deps, invoice, "requested", (notes) => ({
        credit_amount_cents: request.credit_amount,
        refund_amount_cents: request.refund_amount,
        items: proRataItems(remaining(notes), requested, worth(notes)?.max_creditable_amount_cents ?? 0),
      }));
    }
  }
  const rest = await issue(deps, invoice, "remaining", (notes) => {
    const estimate = worth(notes);
    return estimate && estimate.max_creditable_amount_cents > 0
      ? { credit_amount_cents: estimate.max_creditable_amount_cents, refund_amount_cents: 0, items: remaining(notes) }
      : null;
  });
  if (rest && rest.credit_status !== "voided") await voidCreditNote(deps, invoice.organization_id, rest.id);
}

/** One of the void's notes, made once (found again by its part on a retry); null when there is nothing to make. */
async function issue(
  deps: VoidDeps,
  invoice: Invoice,
  part: "requested" | "remaining",
  make: (
    notes: readonly CreditNote[],
  ) => Pick<CreditNoteRequest, "credit_amount_cents" | "refund_amount_cents" | "items"> | null,
): Promise<CreditNote | null> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const notes = await deps.creditNotes.ofInvoice(invoice.id);
    const made = notes.find((n) => n.void_part === part);
    if (made) return made;
    const asked = make(notes);
    if (!asked || asked.items.length === 0) return null;
    const now = deps.clock.now();
    const customer = (await deps.copies.customer(invoice.customer_id))?.customer ?? invoice.customer;
    const sequence = notes.reduce((n, note) => Math.max(n, note.sequential_id), 0) + 1;
    const note = composeCreditNote(
      invoice,
      notes,
      {
        reason: "other",
        description: `Credit note created due to voided invoice ${invoice.id}`,
        offset_amount_cents: 0,
        ...asked,
        void_part: part,
      },
      { sequence, now, customer, issuing_date: localDateOf(now, customer.applicable_timezone || "UTC") },
    );
    const events = creditNoteCreatedEvents(note, now);
    if (await deps.creditNotes.insert(note, events)) {
      await deps.publishCreditNote(note.id, events);
      return note;
    }
  }
  throw new AppError(
    "unavailable",
    "credit_note_contention",
    undefined,
    `credit notes of invoice ${invoice.id} kept racing`,
  );
}
