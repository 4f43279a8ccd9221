import { AppError } from "@billing/errors";
import { localDateOf, progressiveExcessItems } from "@billing/pricing";
import { composeCreditNote, creditableFeeCents, estimateCreditNote, type CreditNote } from "../../domain/credit-note";
import type { Invoice } from "../../domain/invoice";
import { priceInvoice } from "../../domain/invoice-totals";
import { creditNoteCreatedEvents } from "../../events/credit-note-events";
import type { ProgressiveDeps } from "./deps";

type ExcessDeps = Pick<
  ProgressiveDeps,
  "clock" | "copies" | "creditNotes" | "invoices" | "logger" | "publishCreditNote"
>;

/**
 * A period's invoice (periodic, termination, upgrade) whose progressive credit from a subscription
 * is larger than that subscription's charges (usage fell after it was billed progressively:
 * negative events, a credit note on the period's usage…) takes only up to its charges; for the
 * excess, that subscription's progressive invoice gets an automatic credit note (Lago's
 * CreateFromProgressiveBillingInvoice): reason `other`, items over its charge fees the dearest
 * first, credited (a balance the customer's next invoices consume, the period's invoice first when
 * it is finalized after). One note per progressive invoice an invoice takes credit from (an invoice
 * billing several subscriptions may make several), once: each note records the period invoice, and
 * its id is its progressive invoice's next note's (a retry or a second replica finds it made).
 * Called when the period's invoice is stored, before it is finalized. Answers the notes made or found.
 */
export async function creditProgressiveExcess(deps: ExcessDeps, invoice: Invoice): Promise<CreditNote[]> {
  const credit = invoice.progressive_credit;
  if (!credit || credit.amount_cents <= 0) return [];
  const notes: CreditNote[] = [];
  for (const { progressive_invoice_id: id, excess_cents: excess } of priceInvoice({
    currency: invoice.currency,
    fees: invoice.fees,
    coupons: [],
    finalizing: false,
    progressiveCredit: credit,
  }).progressive_excesses) {
    if (excess <= 0) continue;
    if (id === null) {
      // an invoice stored before per-subscription credits, crediting several progressive invoices together
      deps.logger.warn(
        { invoice_id: invoice.id, excess_cents: excess },
        "progressive credit above the charges of several subscriptions: no automatic credit note",
      );
      continue;
    }
    const note = await creditExcessOn(deps, invoice, id, excess);
    if (note) notes.push(note);
  }
  return notes;
}

/** The automatic credit note of `excess` on one progressive invoice, for the period invoice `invoice` (once). */
async function creditExcessOn(
  deps: ExcessDeps,
  invoice: Invoice,
  progressiveId: string,
  excess: number,
): Promise<CreditNote | null> {
  const progressive = await deps.invoices.findById(progressiveId);
  if (!progressive || progressive.status !== "finalized" || progressive.invoice_type !== "progressive_billing")
    return null;
  for (let attempt = 0; attempt < 20; attempt++) {
    const notes = await deps.creditNotes.ofInvoice(progressive.id);
    const made = notes.find((n) => n.progressive_excess_of === invoice.id);
    if (made) return made;
    const charges = progressive.fees.filter((f) => f.fee_type === "charge");
    const items = progressiveExcessItems(
      charges.map((f) => ({ id: f.id, amount_cents: f.amount_cents, creditable_cents: creditableFeeCents(f, notes) })),
      excess,
    );
    if (!items || items.length === 0) {
      deps.logger.warn(
        { invoice_id: invoice.id, progressive_invoice_id: progressive.id, excess_cents: excess },
        "progressive invoice cannot hold its excess credit: no automatic credit note",
      );
      return null;
    }
    // the excess less its coupons' share plus its taxes (Lago), as an estimate of these items gives it
    const credited = estimateCreditNote(progressive, notes, items).max_creditable_amount_cents;
    if (credited <= 0) return null;
    const now = deps.clock.now();
    const customer = (await deps.copies.customer(progressive.customer_id))?.customer ?? progressive.customer;
    const sequence = notes.reduce((n, note) => Math.max(n, note.sequential_id), 0) + 1;
    let note: CreditNote;
    try {
      note = composeCreditNote(
        progressive,
        notes,
        {
          reason: "other",
          description: null,
          credit_amount_cents: credited,
          refund_amount_cents: 0,
          offset_amount_cents: 0,
          items,
          progressive_excess_of: invoice.id,
        },
        { sequence, now, customer, issuing_date: localDateOf(now, customer.applicable_timezone || "UTC") },
      );
    } catch (err) {
      if (err instanceof AppError && err.kind === "unprocessable") return null; // nothing left to credit on it
      throw err;
    }
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
    `credit notes of invoice ${progressive.id} kept racing`,
  );
}
