import { z } from "zod";
import { MAX_PROPERTIES_DEPTH, nestedDeeperThan } from "@billing/contracts";

/** An id sent as a string or a number (Lago's params are strings); absent → "" and the service answers 404. */
const identifier = z
  .union([z.string(), z.number()], { error: "value_is_invalid" })
  .nullish()
  .transform((v) => (v == null ? "" : String(v)));

/**
 * The `event` object of POST /events/estimate_fees. Like Lago, a missing code or subscription
 * is not a validation error: the service answers 404 (billable_metric / subscription not found).
 * Other keys (transaction_id, timestamp: the estimate is always "now") are accepted and ignored.
 */
export const estimateEventSchema = z.object({
  code: identifier,
  external_subscription_id: identifier,
  // nested at most MAX_PROPERTIES_DEPTH levels, as the usage service takes events' properties
  properties: z
    .record(z.string(), z.unknown(), { error: "value_is_invalid" })
    .refine((value) => !nestedDeeperThan(value, MAX_PROPERTIES_DEPTH), "value_is_too_deep")
    .nullish(),
});

export type EstimateEventInput = z.infer<typeof estimateEventSchema>;
