import type { CustomerMessages } from "@billing/contracts";
import type { CustomerRefs } from "../domain/catalog-refs";
import { BILLING_ENTITY_FIELDS, type BillingEntityPatch } from "../domain/billing-entity-patch";
import type { CustomerPatch } from "../domain/customer-patch";
import { CUSTOMER_TEXT_FIELDS, type BillingEntity, type Customer } from "../domain/types";
import { billingEntityView, customerView } from "../domain/views";

/** Proto ⇄ domain for the customer service's messages. */

/** The proto CustomerInput: optional fields absent when not sent, `null_fields` for explicit nulls. */
export type CustomerInputMessage = CustomerMessages.CustomerInput__Output;

function pick(message: object, fields: readonly string[], nulls: string[]): Record<string, unknown> {
  const values = message as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    if (nulls.includes(f)) out[f] = null;
    else if (values[f] !== undefined) out[f] = values[f];
  }
  return out;
}

const SCALARS = [
  ...CUSTOMER_TEXT_FIELDS,
  "net_payment_term",
  "account_type",
  "finalize_zero_amount_invoice",
  "skip_invoice_custom_sections",
];
const BILLING_CONFIGURATION = [
  "invoice_grace_period",
  "payment_provider",
  "payment_provider_code",
  "provider_customer_id",
  "sync",
  "sync_with_provider",
  "document_locale",
  "subscription_invoice_issuing_date_anchor",
  "subscription_invoice_issuing_date_adjustment",
];
const ADDRESS = ["address_line1", "address_line2", "city", "state", "zipcode", "country"];

/** A BillingEntityInput message → the patch the update applies (only what was sent). */
export function toBillingEntityPatch(message: CustomerMessages.BillingEntityInput__Output | null): BillingEntityPatch {
  if (!message) return {};
  const patch = pick(
    message,
    BILLING_ENTITY_FIELDS.filter((f) => f !== "email_settings"),
    message.null_fields,
  ) as BillingEntityPatch;
  if (message.email_settings_set) patch.email_settings = message.email_settings;
  return patch;
}

/** A CustomerInput message → the patch the upsert applies (only what was sent; nulls where null was sent). */
export function toCustomerPatch(message: CustomerInputMessage): CustomerPatch {
  const patch = pick(message, SCALARS, message.null_fields) as CustomerPatch;
  if (message.billing_entity_code !== undefined) patch.billing_entity_code = message.billing_entity_code;
  const bc = message.billing_configuration;
  if (bc) {
    patch.billing_configuration = pick(
      bc,
      BILLING_CONFIGURATION,
      bc.null_fields,
    ) as CustomerPatch["billing_configuration"];
    if (bc.provider_payment_methods_set)
      patch.billing_configuration!.provider_payment_methods = bc.provider_payment_methods;
  }
  const sa = message.shipping_address;
  if (sa) patch.shipping_address = pick(sa, ADDRESS, sa.null_fields) as CustomerPatch["shipping_address"];
  if (message.metadata_set) patch.metadata = message.metadata;
  if (message.tax_codes_set) patch.tax_codes = message.tax_codes;
  if (message.invoice_custom_section_codes_set)
    patch.invoice_custom_section_codes = message.invoice_custom_section_codes;
  if (message.integration_customers_set) {
    patch.integration_customers = message.integration_customers.map(({ integration_type, ...rest }) => ({
      ...rest,
      type: integration_type,
    }));
  }
  return patch;
}

/** A customer with its references → the Customer message (its public view). */
export const customerMessage = ({ customer, refs }: { customer: Customer; refs: CustomerRefs }) =>
  customerView(customer, refs);

/** A billing entity → the BillingEntity message. */
export const billingEntityMessage = (entity: BillingEntity) => billingEntityView(entity);
