import { z } from "zod";

/** The `lifetime_usage` object of PUT /subscriptions/{external_id}/lifetime_usage: the imported usage, integer cents ≥ 0. */
export const lifetimeUsageUpdateSchema = z.object({
  external_historical_usage_amount_cents: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
});
