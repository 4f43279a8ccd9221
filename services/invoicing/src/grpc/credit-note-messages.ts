import type { InvoicingMessages as M } from "@billing/contracts";
import type { Nullable } from "@billing/grpc";
import type { CreditNote, CreditNoteEstimate } from "../domain/credit-note";
import type { Invoice } from "../domain/invoice";
import type { CreditNoteFilter } from "../persistence/credit-note-repository";
import { feeMessage, invoiceCustomerMessage } from "./invoice-messages";

type FeeMessage = Nullable<M.Fee>;

/** The invoice's fee messages by id, as the invoice shows them (what a credit note's items show). */
export function feeMessagesOf(invoice: Invoice): Map<string, FeeMessage> {
  return new Map(invoice.fees.map((fee) => [fee.id, feeMessage(invoice, fee)]));
}

/** Lago's CreditNoteObject, with its customer (CreditNoteExtendedObject), typed: the gateway presents it. */
export function creditNoteMessage(
  note: CreditNote,
  fees: ReadonlyMap<string, FeeMessage>,
  fileUrl: string | null = null,
): Nullable<M.CreditNote> {
  const created = new Date(note.created_at).toISOString();
  return {
    svc_id: note.id,
    billing_entity_code: note.billing_entity_code,
    sequential_id: note.sequential_id,
    number: note.number,
    svc_invoice_id: note.invoice_id,
    invoice_number: note.invoice_number,
    issuing_date: note.issuing_date,
    credit_status: note.credit_status,
    refund_status: note.refund_status,
    reason: note.reason,
    description: note.description,
    currency: note.currency,
    total_amount_cents: note.total_amount_cents,
    taxes_amount_cents: note.taxes_amount_cents,
    taxes_rate: note.taxes_rate,
    sub_total_excluding_taxes_amount_cents: note.sub_total_excluding_taxes_amount_cents,
    balance_amount_cents: note.balance_amount_cents,
    credit_amount_cents: note.credit_amount_cents,
    refund_amount_cents: note.refund_amount_cents,
    offset_amount_cents: note.offset_amount_cents,
    coupons_adjustment_amount_cents: note.coupons_adjustment_amount_cents,
    created_at: created,
    updated_at: new Date(note.updated_at).toISOString(),
    file_url: fileUrl,
    items: note.items.map((i) => ({
      svc_id: i.id,
      amount_cents: i.amount_cents,
      amount_currency: note.currency,
      fee: fees.get(i.fee_id) ?? null,
    })),
    applied_taxes: note.applied_taxes.map((t) => ({
      svc_id: t.id,
      svc_credit_note_id: note.id,
      svc_tax_id: t.tax_id,
      tax_name: t.tax_name,
      tax_code: t.tax_code,
      tax_rate: Number(t.tax_rate),
      tax_description: t.tax_description,
      base_amount_cents: t.base_amount_cents,
      amount_cents: t.amount_cents,
      amount_currency: note.currency,
      created_at: created,
    })),
    customer: invoiceCustomerMessage(note.customer),
  };
}

/** Lago's estimated_credit_note, typed (the domain's estimate is its shape already). */
export const estimateMessage = (estimate: CreditNoteEstimate): Nullable<M.EstimatedCreditNote> => estimate;

export function creditNoteFilterOf(req: M.ListCreditNotesRequest__Output): CreditNoteFilter {
  return {
    externalCustomerId: req.external_customer_id || undefined,
    issuingDateFrom: req.issuing_date_from || undefined,
    issuingDateTo: req.issuing_date_to || undefined,
    currency: req.currency || undefined,
    reason: req.reason || undefined,
    creditStatus: req.credit_status || undefined,
    refundStatus: req.refund_status || undefined,
    invoiceNumber: req.invoice_number || undefined,
    amountFrom: req.amount_from ?? undefined,
    amountTo: req.amount_to ?? undefined,
    searchTerm: req.search_term || undefined,
    billingEntityCodes: req.billing_entity_codes.length ? req.billing_entity_codes : undefined,
  };
}
