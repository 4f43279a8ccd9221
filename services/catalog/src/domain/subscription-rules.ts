import type { SectionChoiceInput } from "@billing/contracts";
import { Violations } from "./patch";
import { BILLING_TIMES, ON_TERMINATION_CREDIT_NOTES, ON_TERMINATION_INVOICES } from "./subscription";

/** The fields of POST /subscriptions the service checks (plan_overrides are checked as a plan change). */
export interface SubscriptionCreateFields {
  external_customer_id?: string | null;
  plan_code?: string | null;
  external_id?: string | null;
  name?: string | null;
  billing_time?: string | null;
  subscription_at?: string | null;
  ending_at?: string | null;
  /** Lago's: no progressive billing for this subscription */
  progressive_billing_disabled?: boolean;
  /** Lago's InvoiceCustomSectionInput (codes not yet resolved; absent: no change) */
  invoice_custom_section?: SectionChoiceInput;
}

/** An ISO 8601 date-time (a date alone is midnight UTC); anything else is null. */
export function parseInstant(value: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(value.trim())) return null;
  const [year, month, day] = value.trim().slice(0, 10).split("-").map(Number) as [number, number, number];
  const calendar = new Date(Date.UTC(year, month - 1, day));
  if (calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day) return null; // 2026-02-30
  const date = new Date(value.trim());
  return Number.isNaN(date.getTime()) ? null : date;
}

function instantField(v: Violations, field: string, value: string | null | undefined): Date | null | undefined {
  if (value === undefined) return undefined;
  if (value === null || value === "") return null;
  const date = parseInstant(value);
  if (!date) v.add(field, "invalid_date");
  return date;
}

/** Every field error at once (Lago's codes), or the parsed dates. */
export function checkSubscriptionCreate(input: SubscriptionCreateFields) {
  const v = new Violations();
  v.mandatory("external_customer_id", input.external_customer_id);
  v.mandatory("plan_code", input.plan_code);
  v.mandatory("external_id", input.external_id);
  v.oneOf("billing_time", input.billing_time ?? null, BILLING_TIMES);
  const subscriptionAt = instantField(v, "subscription_at", input.subscription_at);
  const endingAt = instantField(v, "ending_at", input.ending_at);
  return { violations: v.result(), subscriptionAt, endingAt };
}

/** PUT /subscriptions/{external_id}: only dates can be malformed. */
export function checkSubscriptionUpdate(input: { subscription_at?: string | null; ending_at?: string | null }) {
  const v = new Violations();
  const subscriptionAt = instantField(v, "subscription_at", input.subscription_at);
  const endingAt = instantField(v, "ending_at", input.ending_at);
  return { violations: v.result(), subscriptionAt, endingAt };
}

/** ending_at must come after the start (Lago: invalid_date). */
export function checkEndingAt(v: Violations, endingAt: Date | null, start: Date): void {
  if (endingAt && endingAt.getTime() <= start.getTime()) v.add("ending_at", "invalid_date");
}

/** DELETE /subscriptions/{external_id} options. */
export function checkTermination(input: {
  on_termination_credit_note?: string | null;
  on_termination_invoice?: string | null;
}) {
  const v = new Violations();
  v.oneOf("on_termination_credit_note", input.on_termination_credit_note ?? null, ON_TERMINATION_CREDIT_NOTES);
  v.oneOf("on_termination_invoice", input.on_termination_invoice ?? null, ON_TERMINATION_INVOICES);
  return v.result();
}
