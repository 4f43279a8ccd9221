import { z } from "zod";
import type { ChargeModelName } from "../charge-models/types";
import { bound, checkRanges, groupingProperties, nonNegativeDecimal, optionalNonNegativeDecimal } from "./common";

const perUnitRange = z.object({
  from_value: bound,
  to_value: bound.nullable(),
  per_unit_amount: nonNegativeDecimal,
  flat_amount: nonNegativeDecimal,
});
const rateRange = z.object({
  from_value: bound,
  to_value: bound.nullable(),
  rate: nonNegativeDecimal,
  flat_amount: nonNegativeDecimal,
});

/** standard: amount (may be absent when filters carry the amounts). */
export const standardPropertiesSchema = z.object({ amount: optionalNonNegativeDecimal, ...groupingProperties });

export const packagePropertiesSchema = z.object({
  amount: nonNegativeDecimal,
  package_size: z.number().int().positive(),
  free_units: z.number().int().nonnegative().nullish(),
  ...groupingProperties,
});

export const graduatedPropertiesSchema = z
  .object({ graduated_ranges: z.array(perUnitRange), ...groupingProperties })
  .superRefine((p, ctx) => checkRanges(p.graduated_ranges, "graduated_ranges", ctx));

export const graduatedPercentagePropertiesSchema = z
  .object({ graduated_percentage_ranges: z.array(rateRange), ...groupingProperties })
  .superRefine((p, ctx) => checkRanges(p.graduated_percentage_ranges, "graduated_percentage_ranges", ctx));

export const volumePropertiesSchema = z
  .object({ volume_ranges: z.array(perUnitRange), ...groupingProperties })
  .superRefine((p, ctx) => checkRanges(p.volume_ranges, "volume_ranges", ctx));

export const percentagePropertiesSchema = z
  .object({
    rate: nonNegativeDecimal,
    fixed_amount: optionalNonNegativeDecimal,
    free_units_per_events: z.number().int().nonnegative().nullish(),
    free_units_per_total_aggregation: optionalNonNegativeDecimal,
    per_transaction_min_amount: optionalNonNegativeDecimal,
    per_transaction_max_amount: optionalNonNegativeDecimal,
    ...groupingProperties,
  })
  .superRefine((p, ctx) => {
    const [min, max] = [p.per_transaction_min_amount, p.per_transaction_max_amount];
    if (min != null && max != null && Number(min) > Number(max)) {
      ctx.addIssue({ code: "custom", message: "value_is_out_of_range", path: ["per_transaction_max_amount"] });
    }
  });

export const dynamicPropertiesSchema = z.object({ ...groupingProperties });

const SCHEMAS = {
  standard: standardPropertiesSchema,
  package: packagePropertiesSchema,
  graduated: graduatedPropertiesSchema,
  graduated_percentage: graduatedPercentagePropertiesSchema,
  volume: volumePropertiesSchema,
  percentage: percentagePropertiesSchema,
  dynamic: dynamicPropertiesSchema,
} satisfies Record<ChargeModelName, z.ZodType>;

/** The zod schema of a charge model's properties (errors carry the exact field path). */
export function chargePropertiesSchema<M extends ChargeModelName>(chargeModel: M): (typeof SCHEMAS)[M] {
  const schema = SCHEMAS[chargeModel];
  if (!schema) throw new RangeError(`unknown charge model: ${String(chargeModel)}`);
  return schema;
}

/** One range of graduated and volume properties, as the schemas leave it (bounds are numbers; to_value null: the open last range). */
export type PerUnitRange = z.output<typeof perUnitRange>;
/** One range of graduated_percentage properties, as the schemas leave it. */
export type RateRange = z.output<typeof rateRange>;

/**
 * The properties of a charge (or of one of its filters) of any model, as the model's schema leaves
 * them: each model fills its own fields. Priced as `Record<string, unknown>` by the charge models;
 * carried by the contracts as the ChargeProperties message (@billing/contracts charge-properties).
 */
export type ChargeProperties = {
  amount?: string | null;
  package_size?: number;
  free_units?: number | null;
  graduated_ranges?: PerUnitRange[];
  graduated_percentage_ranges?: RateRange[];
  volume_ranges?: PerUnitRange[];
  rate?: string;
  fixed_amount?: string | null;
  free_units_per_events?: number | null;
  free_units_per_total_aggregation?: string | null;
  per_transaction_min_amount?: string | null;
  per_transaction_max_amount?: string | null;
  pricing_group_keys?: string[] | null;
  grouped_by?: string[] | null;
};

// every model's schema leaves a ChargeProperties (a field added to a schema and not here fails the build)
type LeavesChargeProperties<S extends z.ZodType> =
  z.output<S> extends ChargeProperties ? (keyof z.output<S> extends keyof ChargeProperties ? true : never) : never;
const _everySchemaFits: { [M in keyof typeof SCHEMAS]: LeavesChargeProperties<(typeof SCHEMAS)[M]> } = {
  standard: true,
  package: true,
  graduated: true,
  graduated_percentage: true,
  volume: true,
  percentage: true,
  dynamic: true,
};
void _everySchemaFits;

/** A charge filter: key → non-empty list of values, with properties of the charge's model. */
export function chargeFilterSchema(chargeModel: ChargeModelName) {
  return z.object({
    values: z.record(z.string().min(1), z.array(z.string()).min(1)),
    properties: chargePropertiesSchema(chargeModel),
    invoice_display_name: z.string().nullish(),
  });
}

function errorCode(issue: z.core.$ZodIssue): string {
  if (issue.message.startsWith("value_") || issue.message.startsWith("invalid_")) return issue.message;
  if (issue.code === "invalid_type" && issue.message.includes("undefined")) return "value_is_mandatory";
  return "value_is_invalid";
}

/** Validation errors as Lago's error_details: dotted field path → list of codes. */
export function propertiesErrorDetails(error: z.ZodError): Record<string, string[]> {
  const details: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const path = ["properties", ...issue.path].join(".");
    (details[path] ??= []).push(errorCode(issue));
  }
  return details;
}
