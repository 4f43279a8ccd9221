import type { CustomerPatch } from "../domain/customer-patch";
import { CUSTOMER_TEXT_FIELDS } from "../domain/types";

/** The proto CustomerInput: optional fields absent when not sent, `null_fields` for explicit nulls. */
export interface CustomerInputMessage {
  external_id: string;
  billing_entity_code?: string;
  net_payment_term?: number;
  account_type?: string;
  finalize_zero_amount_invoice?: string;
  skip_invoice_custom_sections?: boolean;
  billing_configuration?: Record<string, unknown> & { null_fields: string[]; provider_payment_methods_set: boolean; provider_payment_methods: string[] } | null;
  shipping_address?: Record<string, unknown> & { null_fields: string[] } | null;
  metadata_set: boolean;
  metadata: Array<{ id?: string; key: string; value: string; display_in_invoice: boolean }>;
  tax_codes_set: boolean;
  tax_codes: string[];
  invoice_custom_section_codes_set: boolean;
  invoice_custom_section_codes: string[];
  integration_customers_set: boolean;
  integration_customers: Array<Record<string, unknown> & { integration_type: string }>;
  null_fields: string[];
  [field: string]: unknown;
}

function pick(message: Record<string, unknown>, fields: readonly string[], nulls: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    if (nulls.includes(f)) out[f] = null;
    else if (message[f] !== undefined) out[f] = message[f];
  }
  return out;
}

const SCALARS = [...CUSTOMER_TEXT_FIELDS, "net_payment_term", "account_type", "finalize_zero_amount_invoice", "skip_invoice_custom_sections"];
const BILLING_CONFIGURATION = [
  "invoice_grace_period", "payment_provider", "payment_provider_code", "provider_customer_id", "sync",
  "sync_with_provider", "document_locale", "subscription_invoice_issuing_date_anchor", "subscription_invoice_issuing_date_adjustment",
];
const ADDRESS = ["address_line1", "address_line2", "city", "state", "zipcode", "country"];

export function toCustomerPatch(message: CustomerInputMessage): CustomerPatch {
  const patch = pick(message, SCALARS, message.null_fields) as CustomerPatch;
  if (message.billing_entity_code !== undefined) patch.billing_entity_code = message.billing_entity_code;
  const bc = message.billing_configuration;
  if (bc) {
    patch.billing_configuration = pick(bc, BILLING_CONFIGURATION, bc.null_fields) as CustomerPatch["billing_configuration"];
    if (bc.provider_payment_methods_set) patch.billing_configuration!.provider_payment_methods = bc.provider_payment_methods;
  }
  const sa = message.shipping_address;
  if (sa) patch.shipping_address = pick(sa, ADDRESS, sa.null_fields) as CustomerPatch["shipping_address"];
  if (message.metadata_set) patch.metadata = message.metadata;
  if (message.tax_codes_set) patch.tax_codes = message.tax_codes;
  if (message.invoice_custom_section_codes_set) patch.invoice_custom_section_codes = message.invoice_custom_section_codes;
  if (message.integration_customers_set) {
    patch.integration_customers = message.integration_customers.map(({ integration_type, ...rest }) => ({ ...rest, type: integration_type }));
  }
  return patch;
}
