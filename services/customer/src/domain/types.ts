/** The customer service's records, as stored and as handled by its use cases. */
export interface Address {
  address_line1: string | null;
  address_line2: string | null;
  city: string | null;
  state: string | null;
  zipcode: string | null;
  country: string | null;
}

export interface BillingConfiguration {
  invoice_grace_period: number | null;
  payment_provider: string | null;
  payment_provider_code: string | null;
  provider_customer_id: string | null;
  sync: boolean;
  sync_with_provider: boolean;
  document_locale: string | null;
  provider_payment_methods: string[];
  subscription_invoice_issuing_date_anchor: string | null;
  subscription_invoice_issuing_date_adjustment: string | null;
}

export interface MetadataItem {
  id: string;
  key: string;
  value: string;
  display_in_invoice: boolean;
  created_at: Date;
}

export interface IntegrationCustomer {
  id: string;
  type: string;
  integration_code: string | null;
  external_customer_id: string | null;
  sync_with_provider: boolean;
  subsidiary_id: string | null;
  targeted_object: string | null;
  email: string | null;
}

/** Plain string fields a client may set or clear. */
export const CUSTOMER_TEXT_FIELDS = [
  "name",
  "firstname",
  "lastname",
  "legal_name",
  "legal_number",
  "tax_identification_number",
  "email",
  "phone",
  "url",
  "logo_url",
  "address_line1",
  "address_line2",
  "city",
  "state",
  "zipcode",
  "country",
  "currency",
  "timezone",
  "customer_type",
] as const;
export type CustomerTextField = (typeof CUSTOMER_TEXT_FIELDS)[number];

export type Customer = Record<CustomerTextField, string | null> & {
  id: string;
  organization_id: string;
  external_id: string;
  sequential_id: number;
  slug: string;
  billing_entity_id: string;
  billing_entity_code: string;
  account_type: string;
  net_payment_term: number | null;
  finalize_zero_amount_invoice: string;
  skip_invoice_custom_sections: boolean;
  billing_configuration: BillingConfiguration;
  shipping_address: Address;
  metadata: MetadataItem[];
  integration_customers: IntegrationCustomer[];
  /** Ids of the catalog taxes applied to the customer (resolved to the live taxes when read). */
  tax_ids: string[];
  /** Ids of the invoice custom sections the customer chose (resolved to the live sections when read). */
  invoice_custom_section_ids: string[];
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
};

export interface Organization {
  id: string;
  name: string;
  document_number_prefix: string;
  created_at: Date;
  /** A sandbox organization's test clock; null for an ordinary organization (system clock). */
  test_clock?: TestClock | null;
}

/**
 * A sandbox organization's time: it stands still at `frozen_time` until told to move. While
 * `advancing`, it steps towards `target` through every instant at which some service has work due.
 */
export interface TestClock {
  frozen_time: Date;
  status: "ready" | "advancing";
  target: Date | null;
}

export interface BillingEntity {
  id: string;
  organization_id: string;
  code: string;
  name: string;
  is_default: boolean;
  default_currency: string;
  document_locale: string;
  document_numbering: string;
  document_number_prefix: string | null;
  finalize_zero_amount_invoice: boolean;
  invoice_footer: string | null;
  invoice_grace_period: number;
  net_payment_term: number;
  subscription_invoice_issuing_date_anchor: string;
  subscription_invoice_issuing_date_adjustment: string;
  timezone: string;
  email_settings: string[];
  eu_tax_management: boolean;
  address_line1: string | null;
  address_line2: string | null;
  city: string | null;
  state: string | null;
  country: string | null;
  zipcode: string | null;
  email: string | null;
  legal_name: string | null;
  legal_number: string | null;
  tax_identification_number: string | null;
  logo_url: string | null;
  created_at: Date;
  updated_at: Date;
}
