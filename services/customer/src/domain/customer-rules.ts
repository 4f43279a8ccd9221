import { isCountryCode, isCurrencyCode, isDocumentLocale, isTimezone } from "@billing/codes";
import type { ErrorDetails } from "@billing/errors";
import type { Customer } from "./types";

export const ACCOUNT_TYPES = ["customer", "partner"];
export const CUSTOMER_TYPES = ["company", "individual"];
export const FINALIZE_ZERO_AMOUNT_INVOICE = ["inherit", "skip", "finalize"];
// Lago's providers, and our built-in `sandbox` (the payment service charges through it without the internet)
export const PAYMENT_PROVIDERS = ["stripe", "adyen", "gocardless", "cashfree", "flutterwave", "moneyhash", "sandbox"];
export const ISSUING_DATE_ANCHORS = ["current_period_end", "next_period_start"];
export const ISSUING_DATE_ADJUSTMENTS = ["align_with_finalization_date", "keep_anchor"];

/**
 * The invariants the customer service enforces on every stored customer,
 * whatever the caller validated before. Returns Lago's error_details, or null.
 */
export function customerViolations(c: Customer): ErrorDetails | null {
  const errors: Record<string, string[]> = {};
  const add = (field: string, code: string) => (errors[field] ??= []).push(code);
  const oneOf = (field: string, value: string | null, allowed: string[]) => {
    if (value !== null && !allowed.includes(value)) add(field, "value_is_invalid");
  };

  if (!c.external_id.trim()) add("external_id", "value_is_mandatory");
  if (c.country !== null && !isCountryCode(c.country)) add("country", "not_a_valid_country_code");
  if (c.shipping_address.country !== null && !isCountryCode(c.shipping_address.country))
    add("shipping_country", "not_a_valid_country_code");
  if (c.currency !== null && !isCurrencyCode(c.currency)) add("currency", "value_is_invalid");
  if (c.timezone !== null && !isTimezone(c.timezone)) add("timezone", "invalid_timezone");
  if (c.email !== null && c.email !== "" && !/^[^\s@,]+@[^\s@,]+$/.test(c.email.split(",")[0]!.trim()))
    add("email", "invalid_email_format");
  if (c.net_payment_term !== null && c.net_payment_term < 0) add("net_payment_term", "value_is_invalid");
  if (c.billing_configuration.invoice_grace_period !== null && c.billing_configuration.invoice_grace_period < 0) {
    add("invoice_grace_period", "value_is_invalid");
  }
  const locale = c.billing_configuration.document_locale;
  if (locale !== null && !isDocumentLocale(locale)) add("document_locale", "invalid_language_code");
  oneOf("account_type", c.account_type, ACCOUNT_TYPES);
  oneOf("customer_type", c.customer_type, CUSTOMER_TYPES);
  oneOf("finalize_zero_amount_invoice", c.finalize_zero_amount_invoice, FINALIZE_ZERO_AMOUNT_INVOICE);
  oneOf("payment_provider", c.billing_configuration.payment_provider, PAYMENT_PROVIDERS);
  oneOf(
    "subscription_invoice_issuing_date_anchor",
    c.billing_configuration.subscription_invoice_issuing_date_anchor,
    ISSUING_DATE_ANCHORS,
  );
  oneOf(
    "subscription_invoice_issuing_date_adjustment",
    c.billing_configuration.subscription_invoice_issuing_date_adjustment,
    ISSUING_DATE_ADJUSTMENTS,
  );
  if (c.metadata.some((m) => !m.key.trim())) add("metadata", "value_is_mandatory");
  return Object.keys(errors).length ? errors : null;
}
