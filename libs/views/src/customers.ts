import type { CustomerMessages as M } from "@billing/contracts";
import { or, presentTax } from "./presenting";
import { presentInvoiceCustomSection } from "./invoice-custom-sections";
import type { customerObject, ViewOf } from "./schemas";

function address(a: M.Address__Output | null | undefined) {
  return {
    address_line1: or(a?.address_line1),
    address_line2: or(a?.address_line2),
    city: or(a?.city),
    country: or(a?.country),
    state: or(a?.state),
    zipcode: or(a?.zipcode),
  };
}

export function presentCustomer(c: M.Customer__Output) {
  const bc: Partial<M.BillingConfiguration__Output> = c.billing_configuration ?? {};
  return {
    svc_id: c.svc_id,
    sequential_id: c.sequential_id,
    slug: c.slug,
    external_id: c.external_id,
    billing_entity_code: c.billing_entity_code,
    address_line1: or(c.address_line1),
    address_line2: or(c.address_line2),
    applicable_timezone: c.applicable_timezone,
    city: or(c.city),
    country: or(c.country),
    currency: or(c.currency),
    email: or(c.email),
    legal_name: or(c.legal_name),
    legal_number: or(c.legal_number),
    logo_url: or(c.logo_url),
    name: or(c.name),
    firstname: or(c.firstname),
    lastname: or(c.lastname),
    account_type: c.account_type,
    customer_type: or(c.customer_type),
    phone: or(c.phone),
    state: or(c.state),
    tax_identification_number: or(c.tax_identification_number),
    timezone: or(c.timezone),
    url: or(c.url),
    zipcode: or(c.zipcode),
    net_payment_term: or(c.net_payment_term),
    created_at: c.created_at,
    updated_at: c.updated_at,
    finalize_zero_amount_invoice: c.finalize_zero_amount_invoice,
    skip_invoice_custom_sections: c.skip_invoice_custom_sections,
    billing_configuration: {
      invoice_grace_period: or(bc.invoice_grace_period),
      payment_provider: or(bc.payment_provider),
      payment_provider_code: or(bc.payment_provider_code),
      provider_customer_id: or(bc.provider_customer_id),
      sync: bc.sync ?? false,
      sync_with_provider: bc.sync_with_provider ?? false,
      document_locale: or(bc.document_locale),
      provider_payment_methods: bc.provider_payment_methods ?? [],
      subscription_invoice_issuing_date_anchor: or(bc.subscription_invoice_issuing_date_anchor),
      subscription_invoice_issuing_date_adjustment: or(bc.subscription_invoice_issuing_date_adjustment),
    },
    shipping_address: address(c.shipping_address),
    metadata: (c.metadata ?? []).map((m) => ({
      svc_id: m.svc_id,
      key: m.key,
      value: m.value,
      display_in_invoice: m.display_in_invoice,
      created_at: m.created_at,
    })),
    integration_customers: (c.integration_customers ?? []).map((i) => ({
      svc_id: i.svc_id,
      type: i.type,
      integration_code: or(i.integration_code),
      external_customer_id: or(i.external_customer_id),
      sync_with_provider: i.sync_with_provider,
      subsidiary_id: or(i.subsidiary_id),
      targeted_object: or(i.targeted_object),
      email: or(i.email),
    })),
    taxes: (c.taxes ?? []).map(presentTax),
    applicable_invoice_custom_sections: (c.applicable_invoice_custom_sections ?? []).map(presentInvoiceCustomSection),
    error_details: [],
  } satisfies ViewOf<typeof customerObject>;
}
