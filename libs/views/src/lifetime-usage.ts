import type { InvoicingMessages } from "@billing/contracts";
import type { lifetimeUsageObject, ViewOf } from "./schemas";

/** Lago's LifetimeUsageObject (`reached_at` null until reached). */
export const presentLifetimeUsage = (u: InvoicingMessages.LifetimeUsage__Output) =>
  ({
    svc_id: u.svc_id,
    svc_subscription_id: u.svc_subscription_id,
    external_subscription_id: u.external_subscription_id,
    external_historical_usage_amount_cents: Number(u.external_historical_usage_amount_cents),
    invoiced_usage_amount_cents: Number(u.invoiced_usage_amount_cents),
    current_usage_amount_cents: Number(u.current_usage_amount_cents),
    from_datetime: u.from_datetime,
    to_datetime: u.to_datetime,
    usage_thresholds: u.usage_thresholds.map((t) => ({
      amount_cents: Number(t.amount_cents),
      completion_ratio: t.completion_ratio,
      reached_at: t.reached_at ?? null,
    })),
  }) satisfies ViewOf<typeof lifetimeUsageObject>;
