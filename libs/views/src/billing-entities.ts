import type { CustomerMessages } from "@billing/contracts";
import { or, presentTax } from "./presenting";
import type { billingEntityObject, ViewOf } from "./schemas";

/** Lago's BillingEntityObject. */
export function presentBillingEntity(e: CustomerMessages.BillingEntity__Output) {
  return {
    svc_id: e.svc_id,
    code: e.code,
    name: e.name,
    default_currency: e.default_currency,
    document_locale: e.document_locale,
    document_numbering: e.document_numbering,
    document_number_prefix: or(e.document_number_prefix),
    finalize_zero_amount_invoice: e.finalize_zero_amount_invoice,
    invoice_footer: or(e.invoice_footer),
    invoice_grace_period: e.invoice_grace_period,
    subscription_invoice_issuing_date_anchor: e.subscription_invoice_issuing_date_anchor,
    subscription_invoice_issuing_date_adjustment: e.subscription_invoice_issuing_date_adjustment,
    is_default: e.is_default,
    net_payment_term: e.net_payment_term,
    address_line1: or(e.address_line1),
    address_line2: or(e.address_line2),
    city: or(e.city),
    state: or(e.state),
    country: or(e.country),
    zipcode: or(e.zipcode),
    email: or(e.email),
    legal_name: or(e.legal_name),
    legal_number: or(e.legal_number),
    tax_identification_number: or(e.tax_identification_number),
    timezone: e.timezone,
    email_settings: e.email_settings ?? [],
    eu_tax_management: e.eu_tax_management,
    logo_url: or(e.logo_url),
    created_at: e.created_at,
    updated_at: e.updated_at,
    taxes: (e.taxes ?? []).map(presentTax),
    selected_invoice_custom_sections: [],
  } satisfies ViewOf<typeof billingEntityObject>;
}
