import type { CustomerRefs, TaxRef } from "./catalog-refs";
import type { BillingEntity, Customer } from "./types";

/**
 * The public view of a customer (the API's field names; null where Lago sends null), with
 * its live taxes and applicable invoice custom sections as the catalog described them.
 */
export function customerView(c: Customer, refs: CustomerRefs) {
  return {
    svc_id: c.id,
    sequential_id: c.sequential_id,
    slug: c.slug,
    external_id: c.external_id,
    billing_entity_code: c.billing_entity_code,
    address_line1: c.address_line1,
    address_line2: c.address_line2,
    applicable_timezone: c.timezone ?? "UTC",
    city: c.city,
    country: c.country,
    currency: c.currency,
    email: c.email,
    legal_name: c.legal_name,
    legal_number: c.legal_number,
    logo_url: c.logo_url,
    name: c.name,
    firstname: c.firstname,
    lastname: c.lastname,
    account_type: c.account_type,
    customer_type: c.customer_type,
    phone: c.phone,
    state: c.state,
    tax_identification_number: c.tax_identification_number,
    timezone: c.timezone,
    url: c.url,
    zipcode: c.zipcode,
    net_payment_term: c.net_payment_term,
    created_at: c.created_at.toISOString(),
    updated_at: c.updated_at.toISOString(),
    finalize_zero_amount_invoice: c.finalize_zero_amount_invoice,
    skip_invoice_custom_sections: c.skip_invoice_custom_sections,
    billing_configuration: { ...c.billing_configuration },
    shipping_address: { ...c.shipping_address },
    metadata: c.metadata.map((m) => ({
      svc_id: m.id,
      key: m.key,
      value: m.value,
      display_in_invoice: m.display_in_invoice,
      created_at: m.created_at.toISOString(),
    })),
    integration_customers: c.integration_customers.map(({ id, ...rest }) => ({ svc_id: id, ...rest })),
    tax_codes: refs.taxes.map((t) => t.code),
    taxes: refs.taxes,
    applicable_invoice_custom_sections: refs.applicable_invoice_custom_sections,
    deleted_at: c.deleted_at ? c.deleted_at.toISOString() : null,
  };
}
export type CustomerView = ReturnType<typeof customerView>;

export function billingEntityView(e: BillingEntity) {
  const { id, organization_id: _org, created_at, updated_at, ...rest } = e;
  return {
    svc_id: id,
    ...rest,
    created_at: created_at.toISOString(),
    updated_at: updated_at.toISOString(),
    taxes: [] as TaxRef[],
  };
}
