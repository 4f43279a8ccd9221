import { z } from "zod";
import { instant, jsonObject, taxObject } from "./common";
import { invoiceCustomSectionObject } from "./catalog";

/** The customer service's objects: customers, billing entities, a sandbox organization's test clock. */

const address = {
  address_line1: z.string().nullable(),
  address_line2: z.string().nullable(),
  city: z.string().nullable(),
  country: z.string().nullable().describe("ISO 3166 alpha-2"),
  state: z.string().nullable(),
  zipcode: z.string().nullable(),
};

export const customerObject = z
  .object({
    svc_id: z.string(),
    sequential_id: z.number().int(),
    slug: z.string(),
    external_id: z.string(),
    billing_entity_code: z.string(),
    address_line1: z.string().nullable(),
    address_line2: z.string().nullable(),
    applicable_timezone: z.string(),
    city: z.string().nullable(),
    country: z.string().nullable(),
    currency: z.string().nullable(),
    email: z.string().nullable(),
    legal_name: z.string().nullable(),
    legal_number: z.string().nullable(),
    logo_url: z.string().nullable(),
    name: z.string().nullable(),
    firstname: z.string().nullable(),
    lastname: z.string().nullable(),
    account_type: z.enum(["customer", "partner"]),
    customer_type: z.enum(["company", "individual"]).nullable(),
    phone: z.string().nullable(),
    state: z.string().nullable(),
    tax_identification_number: z.string().nullable(),
    timezone: z.string().nullable(),
    url: z.string().nullable(),
    zipcode: z.string().nullable(),
    net_payment_term: z.number().int().nullable(),
    created_at: instant,
    updated_at: instant,
    finalize_zero_amount_invoice: z.enum(["inherit", "skip", "finalize"]),
    skip_invoice_custom_sections: z.boolean(),
    billing_configuration: z.object({
      invoice_grace_period: z.number().int().nullable(),
      payment_provider: z
        .enum(["stripe", "adyen", "gocardless", "cashfree", "flutterwave", "moneyhash", "sandbox"])
        .nullable(),
      payment_provider_code: z.string().nullable(),
      provider_customer_id: z.string().nullable(),
      sync: z.boolean(),
      sync_with_provider: z.boolean(),
      document_locale: z.string().nullable(),
      provider_payment_methods: z.array(z.string()),
      subscription_invoice_issuing_date_anchor: z.enum(["current_period_end", "next_period_start"]).nullable(),
      subscription_invoice_issuing_date_adjustment: z.enum(["align_with_finalization_date", "keep_anchor"]).nullable(),
    }),
    shipping_address: z.object(address),
    metadata: z.array(
      z.object({
        svc_id: z.string(),
        key: z.string(),
        value: z.string(),
        display_in_invoice: z.boolean(),
        created_at: instant,
      }),
    ),
    integration_customers: z.array(
      z.object({
        svc_id: z.string(),
        type: z.string(),
        integration_code: z.string().nullable(),
        external_customer_id: z.string().nullable(),
        sync_with_provider: z.boolean(),
        subsidiary_id: z.string().nullable(),
        targeted_object: z.string().nullable(),
        email: z.string().nullable(),
      }),
    ),
    taxes: z.array(taxObject),
    applicable_invoice_custom_sections: z.array(invoiceCustomSectionObject),
    error_details: z.array(jsonObject),
  })
  .meta({
    id: "CustomerObject",
    description: "A customer: who is billed, where, in what currency, and through which payment provider.",
  });

export const billingEntityObject = z
  .object({
    svc_id: z.string(),
    code: z.string(),
    name: z.string(),
    default_currency: z.string(),
    document_locale: z.string(),
    document_numbering: z.enum(["per_customer", "per_billing_entity"]),
    document_number_prefix: z.string().nullable(),
    finalize_zero_amount_invoice: z.boolean(),
    invoice_footer: z.string().nullable(),
    invoice_grace_period: z.number().int(),
    subscription_invoice_issuing_date_anchor: z.enum(["current_period_end", "next_period_start"]),
    subscription_invoice_issuing_date_adjustment: z.enum(["align_with_finalization_date", "keep_anchor"]),
    is_default: z.boolean(),
    net_payment_term: z.number().int(),
    ...address,
    email: z.string().nullable(),
    legal_name: z.string().nullable(),
    legal_number: z.string().nullable(),
    tax_identification_number: z.string().nullable(),
    timezone: z.string(),
    email_settings: z.array(z.enum(["invoice.finalized", "credit_note.created"])),
    eu_tax_management: z.boolean(),
    logo_url: z.string().nullable(),
    created_at: instant,
    updated_at: instant,
    taxes: z.array(taxObject),
    selected_invoice_custom_sections: z.array(invoiceCustomSectionObject),
  })
  .meta({
    id: "BillingEntityObject",
    description: "A billing entity: who issues the invoices (numbering, prefix, grace period, address).",
  });

export const testClockObject = z
  .object({
    frozen_time: instant.describe("the sandbox organization's time now"),
    status: z.enum(["ready", "advancing"]),
  })
  .meta({
    id: "TestClockObject",
    description: "A sandbox organization's clock: its time stands still until advanced (not in Lago).",
  });
