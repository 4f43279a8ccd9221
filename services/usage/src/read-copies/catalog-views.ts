import { z } from "zod";
import type { Envelope } from "@billing/bus";
import type { MetricCopy, PlanCopy, SubscriptionState } from "../domain/read-copies";
import type { Versioned } from "./copy-repository";

/** The parts of the catalog's event views the usage service keeps; anything else is dropped. */
const text = z.string();
const maybe = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? null);
const record = z.record(z.string(), z.unknown());

const taxSchema = z.object({ svc_id: text, code: text, name: text, rate: z.union([text, z.number()]), description: maybe(text) });

const metricSchema = z.object({
  svc_id: text, code: text, name: text, description: maybe(text), aggregation_type: text, field_name: maybe(text),
  recurring: z.boolean().default(false), rounding_function: maybe(text), rounding_precision: maybe(z.number()),
  weighted_interval: maybe(text), expression: maybe(text),
  filters: z.array(z.object({ key: text, values: z.array(text) })).default([]),
  created_at: text, updated_at: text, deleted_at: maybe(text),
});

const chargeSchema = z.object({
  svc_id: text, svc_billable_metric_id: text, billable_metric_code: text, charge_model: text,
  pay_in_advance: z.boolean(), invoiceable: z.boolean().default(true), prorated: z.boolean().default(false),
  properties: record.default({}),
  filters: z.array(z.object({ invoice_display_name: maybe(text), properties: record.default({}), values: z.record(z.string(), z.array(text)) })).default([]),
  taxes: z.array(taxSchema).default([]), invoice_display_name: maybe(text), created_at: maybe(text),
});

const planSchema = z.object({
  svc_id: text, code: text, name: text, interval: text, amount_currency: text, bill_charges_monthly: maybe(z.boolean()),
  taxes: z.array(taxSchema).default([]), charges: z.array(chargeSchema).default([]), updated_at: text, deleted_at: maybe(text),
});

const subscriptionSchema = z.object({
  svc_id: text, external_id: text, svc_customer_id: text, external_customer_id: text, status: text, billing_time: text,
  subscription_at: text, started_at: maybe(text), terminated_at: maybe(text), canceled_at: maybe(text), created_at: text,
  plan_id: text, plan_code: text, timezone: text.default("UTC"),
});

const ms = (iso: string) => {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) throw new Error(`not an instant: ${iso}`);
  return t;
};

/** A subscription's lifecycle rank: on the same instant, the later state wins. */
const STATUS_RANK: Record<string, number> = { pending: 0, active: 1, terminated: 2, canceled: 2 };

/** billing.catalog.billable_metric.*: versioned by the metric's updated_at (it always moves forward). */
export function metricOf(envelope: Envelope): Versioned<MetricCopy> {
  const view = metricSchema.parse((envelope.data as { billable_metric?: unknown })?.billable_metric);
  return { value: { ...view, organization_id: envelope.organization_id }, version: ms(view.updated_at) };
}

/** A plan view (plan.* `data.plan` or a subscription event's `data.plan`): versioned by its updated_at. */
export function planOf(organizationId: string, plan: unknown): Versioned<PlanCopy> {
  const view = planSchema.parse(plan);
  return { value: { ...view, organization_id: organizationId }, version: ms(view.updated_at) };
}

/**
 * billing.catalog.subscription.*: the subscription (versioned by the event's occurred_at, ties
 * broken by lifecycle) and the plan it is billed on.
 */
export function subscriptionOf(envelope: Envelope): { subscription: Versioned<SubscriptionState>; plan: Versioned<PlanCopy> } {
  const data = (envelope.data ?? {}) as { subscription?: unknown; plan?: unknown };
  const view = subscriptionSchema.parse(data.subscription);
  const version = ms(envelope.occurred_at) * 4 + (STATUS_RANK[view.status] ?? 0);
  return {
    subscription: { value: { ...view, organization_id: envelope.organization_id }, version },
    plan: planOf(envelope.organization_id, data.plan),
  };
}
