import { AGGREGATION_TYPES, ROUNDING_FUNCTIONS, WEIGHTED_INTERVALS } from "@billing/codes";
import { z } from "zod";
import { oneOf } from "../../http/fields";

const code = z.string().trim().min(1).max(255);
const name = z.string().trim().min(1).max(255);

/** The `billable_metric` object of PUT /billable_metrics/{code}: every field optional. */
export const billableMetricUpdateSchema = z.object({
  name: name.optional(),
  code: code.optional(),
  description: z.string().max(1000).nullish(),
  aggregation_type: oneOf(AGGREGATION_TYPES).optional(),
  field_name: z.string().max(255).nullish(),
  recurring: z.boolean().nullish(),
  rounding_function: oneOf(ROUNDING_FUNCTIONS).nullish(),
  rounding_precision: z.number().int().min(-15).max(15).nullish(),
  weighted_interval: oneOf(WEIGHTED_INTERVALS).nullish(),
  expression: z.string().max(2000).nullish(),
  filters: z
    .array(
      z.object({
        key: z.string().trim().min(1).max(255),
        values: z.array(z.string().min(1).max(255)).min(1).max(1000),
      }),
    )
    .max(100)
    .nullish(),
});

/** The `billable_metric` object of POST /billable_metrics: name, code and aggregation_type required. */
export const billableMetricCreateSchema = billableMetricUpdateSchema.extend({
  name,
  code,
  aggregation_type: oneOf(AGGREGATION_TYPES),
});

export type BillableMetricInput = z.infer<typeof billableMetricUpdateSchema>;
