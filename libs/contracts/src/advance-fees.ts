import { z } from "zod";
import { taxView } from "./events/fields";

/**
 * One fee a stored event created on a pay-in-advance charge (billing-rules §1.12), as the usage
 * service prices it (AdvanceFeeService) and invoicing stores it: the amounts the pricing library
 * computed, and everything Lago's FeeObject shows of the charge, its filter, the metric and the
 * subscription. Taxes are not applied here: invoicing selects them (charge > plan > customer >
 * billing entity) and applies them. The one definition of the seam: the usage service builds
 * `AdvanceFeeData` values, invoicing parses what it receives with `advanceFeeSchema`.
 */
export const advanceFeeSchema = z.object({
  /** derived from (organization, event key, charge, filter): the same event and charge always give the same fee */
  id: z.string(),
  organization_id: z.string(),
  event_key: z.string(),
  event_svc_id: z.string(),
  event_transaction_id: z.string(),
  event_timestamp: z.string(),
  subscription_id: z.string(),
  external_subscription_id: z.string(),
  customer_id: z.string(),
  external_customer_id: z.string(),
  plan_id: z.string(),
  plan_code: z.string(),
  charge_id: z.string(),
  charge_filter_index: z.number().int().nullable(),
  filter: z.object({ values: z.record(z.string(), z.array(z.string())), invoice_display_name: z.string().nullable() }).nullable(),
  metric: z.object({ svc_id: z.string(), code: z.string(), name: z.string(), description: z.string().nullable(), aggregation_type: z.string() }),
  charge_model: z.string(),
  invoice_display_name: z.string().nullable(),
  invoiceable: z.boolean(),
  regroup_paid_fees: z.string().nullable(),
  prorated: z.boolean(),
  currency: z.string(),
  /** decimal text */
  units: z.string(),
  amount_cents: z.number().int(),
  precise_amount_cents: z.string(),
  unit_amount_cents: z.number().int(),
  precise_unit_amount: z.string(),
  amount_details: z.record(z.string(), z.unknown()),
  grouped_by: z.record(z.string(), z.string().nullable()),
  /** the properties it was priced with (the filter's or the charge's) */
  properties: z.record(z.string(), z.unknown()),
  charge_taxes: z.array(taxView),
  plan_taxes: z.array(taxView),
  /** the charges period (ISO instants) */
  from: z.string(),
  to: z.string(),
  timezone: z.string(),
});
export type AdvanceFeeData = z.output<typeof advanceFeeSchema>;

/** The fees of a list of envelopes, as JSON text: one array per envelope. */
export const advanceFeesSchema = z.array(advanceFeeSchema);

/** Parses the fees the usage service answered (JSON text); a malformed answer throws (the envelope is retried, nothing is stored). */
export function parseAdvanceFees(json: string): AdvanceFeeData[] {
  if (!json) return [];
  return advanceFeesSchema.parse(JSON.parse(json));
}
