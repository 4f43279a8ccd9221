import { z } from "zod";
import { cents, currency, day, instant } from "./common";
import { feeObject, invoiceObject } from "./invoices";

/**
 * Credit notes (presented from the invoicing service's typed notes: credit-notes.ts): Lago's
 * CreditNoteObject with its items (each with the fee it credits) and taxes, and the estimate.
 */

const creditNoteAppliedTax = z.object({
  svc_id: z.string(),
  svc_credit_note_id: z.string(),
  svc_tax_id: z.string().nullable(),
  tax_name: z.string(),
  tax_code: z.string(),
  tax_rate: z.number(),
  tax_description: z.string().nullable(),
  base_amount_cents: cents,
  amount_cents: cents,
  amount_currency: currency,
  created_at: instant,
});

export const creditNoteObject = z
  .object({
    svc_id: z.string(),
    billing_entity_code: z.string().nullable(),
    sequential_id: z.number().int(),
    number: z.string(),
    svc_invoice_id: z.string(),
    invoice_number: z.string(),
    issuing_date: day,
    credit_status: z.enum(["available", "consumed", "voided"]).nullable(),
    refund_status: z.enum(["pending", "succeeded", "failed"]).nullable(),
    reason: z.enum([
      "duplicated_charge",
      "product_unsatisfactory",
      "order_change",
      "order_cancellation",
      "fraudulent_charge",
      "other",
    ]),
    description: z.string().nullable(),
    currency,
    total_amount_cents: cents,
    taxes_amount_cents: cents,
    taxes_rate: z.number(),
    sub_total_excluding_taxes_amount_cents: cents,
    balance_amount_cents: cents,
    credit_amount_cents: cents,
    refund_amount_cents: cents,
    offset_amount_cents: cents,
    coupons_adjustment_amount_cents: cents,
    created_at: instant,
    updated_at: instant,
    file_url: z.string().nullable(),
    self_billed: z.boolean(),
    items: z.array(z.object({ svc_id: z.string(), amount_cents: cents, amount_currency: currency, fee: feeObject })),
    applied_taxes: z.array(creditNoteAppliedTax),
    error_details: z.array(z.record(z.string(), z.unknown())),
    customer: invoiceObject.shape.customer,
    metadata: z.record(z.string(), z.string().nullable()).nullable(),
  })
  .meta({
    id: "CreditNoteObject",
    description:
      "A credit note on a finalized invoice: its credit (a balance later invoices consume), refund and offset parts.",
  });

export const estimatedCreditNoteObject = z
  .object({
    svc_invoice_id: z.string(),
    invoice_number: z.string(),
    currency,
    taxes_amount_cents: cents,
    precise_taxes_amount_cents: z.number(),
    taxes_rate: z.number(),
    sub_total_excluding_taxes_amount_cents: cents,
    max_creditable_amount_cents: cents,
    max_refundable_amount_cents: cents,
    max_offsettable_amount_cents: cents,
    coupons_adjustment_amount_cents: cents,
    precise_coupons_adjustment_amount_cents: z.number(),
    items: z.array(z.object({ svc_fee_id: z.string(), amount_cents: cents })),
    applied_taxes: z.array(
      z.object({
        svc_tax_id: z.string().nullable(),
        tax_name: z.string(),
        tax_code: z.string(),
        tax_rate: z.number(),
        tax_description: z.string().nullable(),
        base_amount_cents: cents,
        amount_cents: cents,
        amount_currency: currency,
      }),
    ),
  })
  .meta({
    id: "EstimatedCreditNoteObject",
    description: "What a credit note on these items would amount to, nothing stored.",
  });
