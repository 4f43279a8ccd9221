import { derivedUuid, Subjects, type Envelope } from "@billing/bus";
import { domainEvent, type EventDataInput } from "@billing/contracts";
import type { CreditNote } from "../domain/credit-note";

const I = Subjects.invoicing;
type CreditNoteSubject =
  | typeof I.creditNoteCreated
  | typeof I.creditNoteUpdated
  | typeof I.creditNoteRefundRequested
  | typeof I.creditNoteGenerated;

function creditNoteData(note: CreditNote): EventDataInput<typeof I.creditNoteCreated> {
  return {
    credit_note: {
      svc_id: note.id,
      number: note.number,
      svc_invoice_id: note.invoice_id,
      invoice_number: note.invoice_number,
      customer: { svc_id: note.customer_id, external_id: note.external_customer_id },
      billing_entity_code: note.billing_entity_code,
      currency: note.currency,
      reason: note.reason,
      credit_status: note.credit_status,
      refund_status: note.refund_status,
      total_amount_cents: note.total_amount_cents,
      credit_amount_cents: note.credit_amount_cents,
      refund_amount_cents: note.refund_amount_cents,
      offset_amount_cents: note.offset_amount_cents,
      balance_amount_cents: note.balance_amount_cents,
      taxes_amount_cents: note.taxes_amount_cents,
      issuing_date: note.issuing_date,
      created_at: note.created_at.toISOString(),
      updated_at: note.updated_at.toISOString(),
    },
  };
}

const event = (subject: CreditNoteSubject, note: CreditNote, at: Date, id?: string) =>
  domainEvent(subject, { organizationId: note.organization_id, data: creditNoteData(note), occurredAt: at, id });

/**
 * A new note's events: `created` (Lago's credit_note.created) and, when it refunds, `refund_requested`
 * for the payment service to pay the refund back (ids derived from the note: written once with it).
 */
export function creditNoteCreatedEvents(note: CreditNote, at: Date): Envelope[] {
  return [
    event(I.creditNoteCreated, note, at),
    ...(note.refund_amount_cents > 0 ? [event(I.creditNoteRefundRequested, note, at)] : []),
  ];
}

/** A note changed (voided, its refund status or its balance). */
export const creditNoteUpdatedEvents = (note: CreditNote, at: Date): Envelope[] => [
  event(I.creditNoteUpdated, note, at),
];

/** A note's PDF rendered and stored for the first time (Lago's credit_note.generated): once per note, its id derived from the note's. */
export const creditNoteGeneratedEvents = (note: CreditNote, at: Date): Envelope[] => [
  event(I.creditNoteGenerated, note, at, derivedUuid(`${note.id}|generated`)),
];
