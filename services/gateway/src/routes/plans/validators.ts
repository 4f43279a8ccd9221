import { CHARGE_MODELS, FIXED_CHARGE_MODELS, PLAN_INTERVALS } from "@billing/codes";
import { z } from "zod";
import { currencyCode, oneOf, topLevelKey } from "../../http/fields";
import type { ErrorKeyOf } from "../../http/validation";

const code = z.string().trim().min(1).max(255);
const name = z.string().trim().min(1).max(255);
export const displayName = z.string().max(255).nullish();
export const amountCents = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const currency = currencyCode.required;
export const taxCodes = z.array(z.string().min(1).max(255)).max(50).nullish();
// Charge properties are read here by their JSON kinds, as every model's schema in the pricing
// library reads them (a decimal as text, a count as an integer, range bounds as numbers or numeric
// text); their values (formats, ranges, what the model requires) are checked by the catalog
// service against the schema of the charge's model. A field of another kind is value_is_invalid,
// as the catalog answers it; keys no model knows are dropped, as the schemas drop them.
const invalid = { error: "value_is_invalid" };
const decimalText = z.string({
  error: (issue) => (issue.input === undefined ? "value_is_mandatory" : "value_is_invalid"),
});
const count = z.number(invalid).int(invalid);
const bound = z.union(
  [
    z.number(),
    z
      .string()
      .regex(/^\d+(\.\d+)?$/)
      .transform(Number),
  ],
  invalid,
);
const perUnitRange = z.object(
  { from_value: bound, to_value: bound.nullable(), per_unit_amount: decimalText, flat_amount: decimalText },
  invalid,
);
const rateRange = z.object(
  { from_value: bound, to_value: bound.nullable(), rate: decimalText, flat_amount: decimalText },
  invalid,
);
const groupKeys = z.array(z.string(invalid), invalid).nullish();
/** null where no model takes one (a count, a list of ranges, a rate) is read as not sent. */
const notNull = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

/** Charge properties (the pricing library's fields of every model; null kept where a model takes it). */
export const properties = z
  .object(
    {
      amount: decimalText.nullish(),
      package_size: notNull(count),
      free_units: count.nullish(),
      graduated_ranges: notNull(z.array(perUnitRange, invalid)),
      graduated_percentage_ranges: notNull(z.array(rateRange, invalid)),
      volume_ranges: notNull(z.array(perUnitRange, invalid)),
      rate: notNull(decimalText),
      fixed_amount: decimalText.nullish(),
      free_units_per_events: count.nullish(),
      free_units_per_total_aggregation: decimalText.nullish(),
      per_transaction_min_amount: decimalText.nullish(),
      per_transaction_max_amount: decimalText.nullish(),
      pricing_group_keys: groupKeys,
      grouped_by: groupKeys,
    },
    invalid,
  )
  .nullish();
/** A charge's filters: values per metric filter key, and the properties that apply to them. */
export const chargeFilters = z
  .array(
    z.object({
      invoice_display_name: displayName,
      properties,
      values: z.record(z.string().min(1).max(255), z.array(z.string().max(255)).max(1000)),
    }),
  )
  .max(100)
  .nullish();
export const minimumCommitment = z
  .object({ amount_cents: amountCents, invoice_display_name: displayName, tax_codes: taxCodes })
  .nullish();
export const usageThresholds = z
  .array(z.object({ threshold_display_name: displayName, amount_cents: amountCents, recurring: z.boolean().nullish() }))
  .max(100)
  .nullish();

const chargeSchema = z.object({
  id: z.string().min(1).max(255).nullish(),
  billable_metric_id: z.string().trim().min(1).max(255),
  charge_model: oneOf(CHARGE_MODELS),
  code: z.string().max(255).nullish(),
  pay_in_advance: z.boolean().nullish(),
  invoiceable: z.boolean().nullish(),
  prorated: z.boolean().nullish(),
  min_amount_cents: amountCents.nullish(),
  regroup_paid_fees: oneOf(["invoice"]).nullish(),
  invoice_display_name: displayName,
  properties,
  filters: chargeFilters,
  tax_codes: taxCodes,
});

const fixedChargeSchema = z.object({
  id: z.string().min(1).max(255).nullish(),
  add_on_id: z.string().trim().min(1).max(255),
  charge_model: oneOf(FIXED_CHARGE_MODELS),
  code: z.string().max(255).nullish(),
  pay_in_advance: z.boolean().nullish(),
  prorated: z.boolean().nullish(),
  units: z.number().min(0).max(1e12).nullish(),
  invoice_display_name: displayName,
  properties,
  tax_codes: taxCodes,
});

/** The `plan` object of PUT /plans/{code}: every field optional. */
export const planUpdateSchema = z.object({
  name: name.optional(),
  code: code.optional(),
  description: z.string().max(1000).nullish(),
  invoice_display_name: displayName,
  interval: oneOf(PLAN_INTERVALS).optional(),
  amount_cents: amountCents.optional(),
  amount_currency: currency.optional(),
  trial_period: z.number().min(0).max(36500).nullish(),
  pay_in_advance: z.boolean().optional(),
  bill_charges_monthly: z.boolean().nullish(),
  bill_fixed_charges_monthly: z.boolean().nullish(),
  tax_codes: taxCodes,
  minimum_commitment: minimumCommitment,
  usage_thresholds: usageThresholds,
  charges: z.array(chargeSchema).max(500).nullish(),
  fixed_charges: z.array(fixedChargeSchema).max(500).nullish(),
  metadata: z.record(z.string().max(100), z.string().max(255).nullable()).nullish(),
});

/** The `plan` object of POST /plans: name, code, interval, amount_cents, amount_currency and pay_in_advance required. */
export const planCreateSchema = planUpdateSchema.extend({
  name,
  code,
  interval: oneOf(PLAN_INTERVALS),
  amount_cents: amountCents,
  amount_currency: currency,
  pay_in_advance: z.boolean(),
});

export type PlanInput = z.infer<typeof planUpdateSchema>;

/** Errors inside a charge name the charge (`charges.0.charge_model`); elsewhere the top-level attribute. */
export const planErrorKey: ErrorKeyOf = (path) =>
  path[0] === "charges" || path[0] === "fixed_charges" ? path.map(String).join(".") : topLevelKey(path);
