import { z } from "zod";
import { instant, maybe, taxView, text } from "./fields";

export const customerView = z.object({
  svc_id: text,
  external_id: text,
  sequential_id: z.number().int(),
  slug: maybe(text),
  billing_entity_code: maybe(text),
  name: maybe(text),
  currency: maybe(text),
  country: maybe(text),
  email: maybe(text),
  timezone: maybe(text),
  applicable_timezone: text.default("UTC"),
  net_payment_term: maybe(z.number().int()),
  finalize_zero_amount_invoice: maybe(text),
  taxes: z.array(taxView).default([]),
  billing_configuration: z
    .object({
      invoice_grace_period: maybe(z.number().int()),
      subscription_invoice_issuing_date_anchor: maybe(text),
      subscription_invoice_issuing_date_adjustment: maybe(text),
    })
    .nullish()
    .transform(
      (v) =>
        v ?? {
          invoice_grace_period: null,
          subscription_invoice_issuing_date_anchor: null,
          subscription_invoice_issuing_date_adjustment: null,
        },
    ),
  created_at: instant,
  updated_at: instant,
  deleted_at: maybe(instant),
});
/** billing.customer.customer.created|updated|deleted: the customer's whole public view. */
export const customerEventData = z.object({ customer: customerView });

export type CustomerViewData = z.output<typeof customerView>;
