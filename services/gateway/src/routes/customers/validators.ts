import { z } from "zod";
import { countryCode, currencyCode, documentLocale, timezoneName } from "../../http/fields";
import type { ErrorKeyOf } from "../../http/validation";

const text = z.string().max(255).nullish();
const country = countryCode.nullish;

const addressSchema = z.object({
  address_line1: text,
  address_line2: text,
  city: text,
  state: text,
  zipcode: text,
  country,
});

/** The `customer` object of POST /customers (Lago's CustomerCreateInput). */
export const customerInputSchema = z.object({
  external_id: z.string().trim().min(1).max(255),
  billing_entity_code: z.string().nullish(),
  name: text,
  firstname: text,
  lastname: text,
  legal_name: text,
  legal_number: text,
  tax_identification_number: text,
  email: z
    .string()
    .max(255)
    .refine((v) => v === "" || v.split(",").every((e) => /^[^\s@]+@[^\s@]+$/.test(e.trim())), "invalid_email_format")
    .nullish(),
  phone: text,
  url: text,
  logo_url: z.string().max(2048).nullish(),
  address_line1: text,
  address_line2: text,
  city: text,
  state: text,
  zipcode: text,
  country,
  currency: currencyCode.nullish,
  timezone: timezoneName.nullish(),
  net_payment_term: z.number().int().min(0).max(3650).nullish(),
  account_type: z.enum(["customer", "partner"]).nullish(),
  customer_type: z.enum(["company", "individual"]).nullish(),
  finalize_zero_amount_invoice: z.enum(["inherit", "skip", "finalize"]).nullish(),
  skip_invoice_custom_sections: z.boolean().nullish(),
  billing_configuration: z
    .object({
      invoice_grace_period: z.number().int().min(0).max(365).nullish(),
      // Lago's providers, and our built-in `sandbox` (payments without the internet; the payment service's SANDBOX_CUSTOMERS)
      payment_provider: z
        .enum(["stripe", "adyen", "gocardless", "cashfree", "flutterwave", "moneyhash", "sandbox"])
        .nullish(),
      payment_provider_code: text,
      provider_customer_id: text,
      sync: z.boolean().nullish(),
      sync_with_provider: z.boolean().nullish(),
      document_locale: documentLocale.nullish,
      provider_payment_methods: z.array(z.string().max(64)).max(20).nullish(),
      subscription_invoice_issuing_date_anchor: z.enum(["current_period_end", "next_period_start"]).nullish(),
      subscription_invoice_issuing_date_adjustment: z.enum(["align_with_finalization_date", "keep_anchor"]).nullish(),
    })
    .nullish(),
  shipping_address: addressSchema.nullish(),
  metadata: z
    .array(
      z.object({
        id: z.string().nullish(),
        key: z.string().trim().min(1).max(100),
        value: z.string().max(255),
        display_in_invoice: z.boolean(),
      }),
    )
    .max(50)
    .nullish(),
  tax_codes: z.array(z.string().min(1)).max(50).nullish(),
  integration_customers: z
    .array(
      z.object({
        id: z.string().nullish(),
        integration_type: z.string().min(1),
        integration_code: text,
        external_customer_id: text,
        sync_with_provider: z.boolean().nullish(),
        subsidiary_id: text,
        targeted_object: text,
        email: text,
      }),
    )
    .max(20)
    .nullish(),
  invoice_custom_section_codes: z.array(z.string().min(1).max(255)).max(50).nullish(),
});

export type CustomerInput = z.infer<typeof customerInputSchema>;

/** Lago names nested errors by attribute: `document_locale`, `shipping_country`, `metadata`. */
export const customerErrorKey: ErrorKeyOf = (path) => {
  const [head, field] = path.map(String);
  if (head === "billing_configuration" && field) return field;
  if (head === "shipping_address" && field) return `shipping_${field}`;
  return head ?? "base";
};
