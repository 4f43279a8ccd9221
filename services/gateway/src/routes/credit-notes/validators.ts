import { z } from "zod";
import { invoiceCustomSectionChoice } from "../invoice-custom-sections/choice";
import { calendarDate } from "../../http/fields";

const amount = z.number().int("value_is_invalid").min(0, "invalid_value");
const reasons = z.enum([
  "duplicated_charge",
  "product_unsatisfactory",
  "order_change",
  "order_cancellation",
  "fraudulent_charge",
  "other",
]);
const items = z.array(
  z.object({ fee_id: z.string().min(1, "value_is_mandatory"), amount_cents: amount }),
  "must_be_an_array",
);

/** POST /credit_notes: Lago's CreditNoteCreateInput. */
export const creditNoteCreate = z.object({
  invoice_id: z.string().min(1, "value_is_mandatory"),
  reason: reasons.nullish(),
  description: z.string().nullish(),
  credit_amount_cents: amount.nullish(),
  refund_amount_cents: amount.nullish(),
  offset_amount_cents: amount.nullish(),
  items,
});

/** POST /credit_notes/estimate: Lago's CreditNoteEstimateInput. */
export const creditNoteEstimate = z.object({ invoice_id: z.string().min(1, "value_is_mandatory"), items });

/** PUT /credit_notes/{id}: Lago's CreditNoteUpdateInput. */
export const creditNoteUpdate = z.object({ refund_status: z.enum(["pending", "succeeded", "failed"]) });

/** GET /credit_notes filters (Lago's names). */
export const creditNoteListQuery = z.object({
  external_customer_id: z.string().optional(),
  issuing_date_from: calendarDate.optional(),
  issuing_date_to: calendarDate.optional(),
  search_term: z.string().optional(),
  currency: z.string().optional(),
  reason: reasons.optional(),
  credit_status: z.enum(["available", "consumed", "voided"]).optional(),
  refund_status: z.enum(["pending", "succeeded", "failed"]).optional(),
  invoice_number: z.string().optional(),
  amount_from: z.string().regex(/^\d+$/, "value_is_invalid").transform(Number).optional(),
  amount_to: z.string().regex(/^\d+$/, "value_is_invalid").transform(Number).optional(),
  billing_entity_codes: z
    .union([z.string(), z.array(z.string())])
    .transform((v) => (Array.isArray(v) ? v : [v]))
    .optional(),
});

/** POST /invoices/{id}/void: Lago's InvoiceVoidInput (optional body). */
export const invoiceVoid = z.object({
  generate_credit_note: z.boolean().optional(),
  refund_amount: amount.optional(),
  credit_amount: amount.optional(),
});

/** POST /invoices: Lago's InvoiceOneOffCreateInput (one-off invoice of add-on fees). */
export const oneOffInvoiceCreate = z.object({
  external_customer_id: z.string().min(1, "value_is_mandatory"),
  currency: z.string().length(3, "value_is_invalid").optional(),
  billing_entity_code: z.string().min(1).optional(),
  fees: z.array(
    z.object({
      add_on_code: z.string().min(1, "value_is_mandatory"),
      invoice_display_name: z.string().optional(),
      unit_amount_cents: z.number().int("value_is_invalid").min(0, "value_is_out_of_range").nullish(),
      units: z
        .union([z.string().regex(/^[0-9]+(\.[0-9]+)?$/, "value_is_invalid"), z.number().min(0)])
        .transform(String)
        .nullish(),
      description: z.string().nullish(),
      tax_codes: z.array(z.string()).optional(),
      from_datetime: z.iso.datetime({ offset: true }).optional(),
      to_datetime: z.iso.datetime({ offset: true }).optional(),
    }),
  ),
  invoice_custom_section: invoiceCustomSectionChoice.nullish(),
});
