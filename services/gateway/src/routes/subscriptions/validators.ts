import { SUBSCRIPTION_STATUSES } from "@billing/codes";
import { z } from "zod";
import { currencyCode, oneOf, topLevelKey } from "../../http/fields";
import type { ErrorKeyOf } from "../../http/validation";
import { invoiceCustomSectionChoice } from "../invoice-custom-sections/choice";
import {
  amountCents,
  chargeFilters,
  displayName,
  minimumCommitment,
  properties,
  taxCodes,
  usageThresholds,
} from "../plans/validators";

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
/** An ISO 8601 date-time; the catalog checks the calendar (2026-02-30 is invalid_date there too). */
const dateTime = z
  .string()
  .refine((v) => ISO_DATE_TIME.test(v.trim()) && !Number.isNaN(Date.parse(v.trim())), "invalid_date");
const identifier = z.string().trim().min(1).max(255);

const chargeOverride = z.object({
  id: identifier,
  billable_metric_id: z.string().max(255).nullish(),
  invoice_display_name: displayName,
  min_amount_cents: amountCents.nullish(),
  properties,
  filters: chargeFilters,
  tax_codes: taxCodes,
});

/** plan_overrides (spec: Subscription); charge properties are checked by the catalog with the pricing library. */
const planOverrides = z.object({
  amount_cents: amountCents.nullish(),
  amount_currency: currencyCode.nullish,
  description: z.string().max(1000).nullish(),
  invoice_display_name: displayName,
  name: z.string().trim().min(1).max(255).nullish(),
  tax_codes: taxCodes,
  trial_period: z.number().min(0).max(36500).nullish(),
  charges: z.array(chargeOverride).max(500).nullish(),
  minimum_commitment: minimumCommitment,
  usage_thresholds: usageThresholds,
});

/** The `subscription` object of PUT /subscriptions/{external_id}. */
export const subscriptionUpdateSchema = z.object({
  name: z.string().max(255).nullish(),
  subscription_at: dateTime.nullish(),
  ending_at: dateTime.nullish(),
  plan_overrides: planOverrides.nullish(),
  status: oneOf(["active", "pending"]).nullish(),
  progressive_billing_disabled: z.boolean().nullish(),
  invoice_custom_section: invoiceCustomSectionChoice.nullish(),
});

/** The `subscription` object of POST /subscriptions. */
export const subscriptionCreateSchema = subscriptionUpdateSchema.omit({ status: true }).extend({
  external_customer_id: identifier,
  plan_code: identifier,
  external_id: identifier,
  billing_time: oneOf(["calendar", "anniversary"]).nullish(),
});

export type SubscriptionCreate = z.infer<typeof subscriptionCreateSchema>;
export type SubscriptionUpdate = z.infer<typeof subscriptionUpdateSchema>;
export type PlanOverrides = z.infer<typeof planOverrides>;

/** Errors inside overrides name the path (`plan_overrides.charges.0.properties`); elsewhere the attribute. */
export const subscriptionErrorKey: ErrorKeyOf = (path) =>
  path[0] === "plan_overrides" ? path.map(String).join(".") : topLevelKey(path);

/** `?status=` of GET, PUT and DELETE. */
export const statusQuery = oneOf(SUBSCRIPTION_STATUSES).optional();

/** DELETE /subscriptions/{external_id} options. */
export const terminationQuery = z.object({
  status: oneOf(SUBSCRIPTION_STATUSES).optional(),
  on_termination_credit_note: oneOf(["credit", "refund", "offset", "skip"]).optional(),
  on_termination_invoice: oneOf(["generate", "skip"]).optional(),
});

/** GET /subscriptions filters (`status[]` repeatable; one `status` accepted too). */
export const listQuery = z.object({
  external_customer_id: z.string().max(255).optional(),
  plan_code: z.string().max(255).optional(),
  status: z.union([oneOf(SUBSCRIPTION_STATUSES), z.array(oneOf(SUBSCRIPTION_STATUSES)).max(4)]).optional(),
});
