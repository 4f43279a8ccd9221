import { z } from "zod";
import { oneOf } from "../../http/fields";

export const AGGREGATION_TYPES = ["count_agg", "sum_agg", "max_agg", "unique_count_agg", "weighted_sum_agg", "latest_agg"] as const;

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
  rounding_function: oneOf(["ceil", "floor", "round"]).nullish(),
  rounding_precision: z.number().int().min(-15).max(15).nullish(),
  weighted_interval: oneOf(["seconds"]).nullish(),
  expression: z.string().max(2000).nullish(),
  filters: z
    .array(z.object({ key: z.string().trim().min(1).max(255), values: z.array(z.string().min(1).max(255)).min(1).max(1000) }))
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
