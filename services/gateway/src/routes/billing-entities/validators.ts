import { z } from "zod";
import { countryCode, currencyCode, documentLocale, timezoneName } from "../../http/fields";

const text = z.string().max(255).nullish();

/** The `billing_entity` object of PUT /billing_entities/{code} (Lago's BillingEntityUpdateInput). */
export const billingEntityUpdateSchema = z.object({
  name: z.string().trim().min(1, "value_is_mandatory").max(255).nullish(),
  default_currency: currencyCode.nullish,
  document_numbering: z.enum(["per_customer", "per_billing_entity"]).nullish(),
  document_number_prefix: z.string().trim().min(1, "value_is_mandatory").max(10, "value_is_too_long").nullish(),
  finalize_zero_amount_invoice: z.boolean().nullish(),
  net_payment_term: z.number().int().min(0).max(3650).nullish(),
  invoice_footer: z.string().max(600).nullish(),
  address_line1: text,
  address_line2: text,
  city: text,
  state: text,
  zipcode: text,
  country: countryCode.nullish,
  email: z
    .string()
    .max(255)
    .refine((v) => /^[^\s@]+@[^\s@]+$/.test(v), "invalid_email_format")
    .nullish(),
  legal_name: text,
  legal_number: text,
  tax_identification_number: text,
  timezone: timezoneName.nullish(),
  eu_tax_management: z.boolean().nullish(),
  email_settings: z.array(z.enum(["invoice.finalized", "credit_note.created"])).nullish(),
  billing_configuration: z
    .object({
      invoice_footer: z.string().max(600).nullish(),
      document_locale: documentLocale.nullish,
      invoice_grace_period: z.number().int().min(0).max(365).nullish(),
      subscription_invoice_issuing_date_anchor: z.enum(["current_period_end", "next_period_start"]).nullish(),
      subscription_invoice_issuing_date_adjustment: z.enum(["align_with_finalization_date", "keep_anchor"]).nullish(),
    })
    .nullish(),
});
export type BillingEntityUpdate = z.infer<typeof billingEntityUpdateSchema>;
