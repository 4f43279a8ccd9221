import { z } from "zod";
import { cents, instant } from "./common";

export const lifetimeUsageThresholdObject = z
  .object({
    amount_cents: cents.describe("the usage threshold step, in cents"),
    completion_ratio: z.number().describe("1 once reached; the next step's progress; 0 beyond"),
    reached_at: instant.nullable(),
  })
  .meta({ id: "LifetimeUsageThresholdObject" });

export const lifetimeUsageObject = z
  .object({
    svc_id: z.string(),
    svc_subscription_id: z.string(),
    external_subscription_id: z.string(),
    external_historical_usage_amount_cents: cents,
    invoiced_usage_amount_cents: cents,
    current_usage_amount_cents: cents,
    from_datetime: instant,
    to_datetime: instant,
    usage_thresholds: z.array(lifetimeUsageThresholdObject),
  })
  .meta({
    id: "LifetimeUsageObject",
    description:
      "A subscription's lifetime usage (historical + invoiced + current) and its progress against its usage thresholds.",
  });
