import type { BillingEntity } from "./types";

/** What PUT /billing_entities/{code} may change, as sent: a value, or null to clear a nullable field. */
export type BillingEntityPatch = Partial<{
  [K in (typeof BILLING_ENTITY_FIELDS)[number]]: BillingEntity[K] | null;
}>;

export const BILLING_ENTITY_FIELDS = [
  "name",
  "default_currency",
  "document_numbering",
  "document_number_prefix",
  "finalize_zero_amount_invoice",
  "invoice_footer",
  "document_locale",
  "invoice_grace_period",
  "subscription_invoice_issuing_date_anchor",
  "subscription_invoice_issuing_date_adjustment",
  "net_payment_term",
  "address_line1",
  "address_line2",
  "city",
  "state",
  "country",
  "zipcode",
  "email",
  "legal_name",
  "legal_number",
  "tax_identification_number",
  "timezone",
  "eu_tax_management",
  "email_settings",
] as const satisfies ReadonlyArray<keyof BillingEntity>;

/** Fields that hold a setting the entity cannot be without: a null sent for one of them is refused. */
const REQUIRED: ReadonlySet<string> = new Set([
  "name",
  "default_currency",
  "document_numbering",
  "document_number_prefix",
  "finalize_zero_amount_invoice",
  "document_locale",
  "invoice_grace_period",
  "subscription_invoice_issuing_date_anchor",
  "subscription_invoice_issuing_date_adjustment",
  "net_payment_term",
  "timezone",
  "eu_tax_management",
  "email_settings",
]);

/** Fields of the patch that were sent as null but cannot be cleared (each is a validation error). */
export function unclearable(patch: BillingEntityPatch): string[] {
  return Object.entries(patch)
    .filter(([key, value]) => value === null && REQUIRED.has(key))
    .map(([key]) => key);
}

/** The entity with what was sent applied; `updated_at` moves to `now`. */
export function applyBillingEntityPatch(entity: BillingEntity, patch: BillingEntityPatch, now: Date): BillingEntity {
  const next: Record<string, unknown> = { ...entity };
  for (const field of BILLING_ENTITY_FIELDS) if (patch[field] !== undefined) next[field] = patch[field];
  return { ...(next as unknown as BillingEntity), updated_at: now };
}
