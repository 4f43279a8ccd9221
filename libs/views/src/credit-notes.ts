import type { InvoicingMessages as M } from "@billing/contracts";
import { presentFee, presentInvoiceCustomer } from "./invoices";
import { or } from "./presenting";
import type { creditNoteObject, estimatedCreditNoteObject, ViewOf } from "./schemas";

type CreditNoteView = ViewOf<typeof creditNoteObject>;

/** Lago's CreditNoteObject with its customer (CreditNoteExtendedObject): each item with the fee it credits, as its invoice shows it. */
export function presentCreditNote(n: M.CreditNote__Output) {
  return {
    svc_id: n.svc_id,
    billing_entity_code: or(n.billing_entity_code),
    sequential_id: n.sequential_id,
    number: n.number,
    svc_invoice_id: n.svc_invoice_id,
    invoice_number: n.invoice_number,
    issuing_date: n.issuing_date,
    credit_status: or(n.credit_status) as CreditNoteView["credit_status"],
    refund_status: or(n.refund_status) as CreditNoteView["refund_status"],
    reason: n.reason as CreditNoteView["reason"],
    description: or(n.description),
    currency: n.currency,
    total_amount_cents: n.total_amount_cents,
    taxes_amount_cents: n.taxes_amount_cents,
    taxes_rate: n.taxes_rate,
    sub_total_excluding_taxes_amount_cents: n.sub_total_excluding_taxes_amount_cents,
    balance_amount_cents: n.balance_amount_cents,
    credit_amount_cents: n.credit_amount_cents,
    refund_amount_cents: n.refund_amount_cents,
    offset_amount_cents: n.offset_amount_cents,
    coupons_adjustment_amount_cents: n.coupons_adjustment_amount_cents,
    created_at: n.created_at,
    updated_at: n.updated_at,
    file_url: or(n.file_url),
    self_billed: false,
    // an item's fee is one of its invoice's (a note is made only on them); null only were that invoice unreadable
    items: n.items.map((i) => ({
      svc_id: i.svc_id,
      amount_cents: i.amount_cents,
      amount_currency: i.amount_currency,
      fee: (i.fee ? presentFee(i.fee) : null) as ReturnType<typeof presentFee>,
    })),
    applied_taxes: n.applied_taxes.map((t) => ({
      svc_id: t.svc_id,
      svc_credit_note_id: t.svc_credit_note_id,
      svc_tax_id: or(t.svc_tax_id),
      tax_name: t.tax_name,
      tax_code: t.tax_code,
      tax_rate: t.tax_rate,
      tax_description: or(t.tax_description),
      base_amount_cents: t.base_amount_cents,
      amount_cents: t.amount_cents,
      amount_currency: t.amount_currency,
      created_at: t.created_at,
    })),
    error_details: [],
    customer: presentInvoiceCustomer(n.customer),
    metadata: null,
  } satisfies CreditNoteView;
}

/** Lago's estimated_credit_note. */
export function presentEstimatedCreditNote(e: M.EstimatedCreditNote__Output) {
  return {
    svc_invoice_id: e.svc_invoice_id,
    invoice_number: e.invoice_number,
    currency: e.currency,
    taxes_amount_cents: e.taxes_amount_cents,
    precise_taxes_amount_cents: e.precise_taxes_amount_cents,
    taxes_rate: e.taxes_rate,
    sub_total_excluding_taxes_amount_cents: e.sub_total_excluding_taxes_amount_cents,
    max_creditable_amount_cents: e.max_creditable_amount_cents,
    max_refundable_amount_cents: e.max_refundable_amount_cents,
    max_offsettable_amount_cents: e.max_offsettable_amount_cents,
    coupons_adjustment_amount_cents: e.coupons_adjustment_amount_cents,
    precise_coupons_adjustment_amount_cents: e.precise_coupons_adjustment_amount_cents,
    items: e.items.map((i) => ({ svc_fee_id: i.svc_fee_id, amount_cents: i.amount_cents })),
    applied_taxes: e.applied_taxes.map((t) => ({
      svc_tax_id: or(t.svc_tax_id),
      tax_name: t.tax_name,
      tax_code: t.tax_code,
      tax_rate: t.tax_rate,
      tax_description: or(t.tax_description),
      base_amount_cents: t.base_amount_cents,
      amount_cents: t.amount_cents,
      amount_currency: t.amount_currency,
    })),
  } satisfies ViewOf<typeof estimatedCreditNoteObject>;
}
