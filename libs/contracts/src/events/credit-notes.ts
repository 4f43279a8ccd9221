import { z } from "zod";
import { instant, maybe, text } from "./fields";

const cents = z.number().int();

/**
 * A credit note as the invoicing service announces it (what the payment service and webhooks act
 * on: its parts, its statuses and the invoice it credits; the whole object is the
 * CreditNoteService's GetCreditNote).
 */
export const creditNoteView = z.object({
  svc_id: text,
  number: text,
  svc_invoice_id: text,
  invoice_number: text,
  customer: z.object({ svc_id: text, external_id: text }),
  billing_entity_code: maybe(text),
  currency: text,
  reason: text,
  credit_status: maybe(z.enum(["available", "consumed", "voided"])),
  refund_status: maybe(z.enum(["pending", "succeeded", "failed"])),
  total_amount_cents: cents,
  credit_amount_cents: cents,
  refund_amount_cents: cents,
  offset_amount_cents: cents,
  balance_amount_cents: cents,
  taxes_amount_cents: cents,
  issuing_date: text,
  created_at: instant,
  updated_at: instant,
});
/**
 * billing.invoicing.credit_note.created|updated|refund_requested (Lago's credit_note.created;
 * refund_requested: the refund part the payment service is to pay back, once per credit note).
 */
export const creditNoteEventData = z.object({ credit_note: creditNoteView });
export type CreditNoteViewData = z.output<typeof creditNoteView>;
