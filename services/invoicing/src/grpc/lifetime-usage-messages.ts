import type { InvoicingMessages as M } from "@billing/contracts";
import type { Invoice } from "../domain/invoice";
import type { LifetimeUsageView } from "../use-cases/progressive/lifetime-usage";

/** A progressive_billing invoice's applied thresholds (Lago's AppliedUsageThresholdObject); none on other invoices. */
export function appliedUsageThresholdMessages(invoice: Invoice): M.AppliedUsageThreshold[] {
  return (invoice.applied_usage_thresholds ?? []).map((a) => ({
    lifetime_usage_amount_cents: a.lifetime_usage_amount_cents,
    created_at: new Date(a.created_at).toISOString(),
    usage_threshold: {
      svc_id: a.usage_threshold.svc_id,
      ...(a.usage_threshold.threshold_display_name !== null
        ? { threshold_display_name: a.usage_threshold.threshold_display_name }
        : {}),
      amount_cents: a.usage_threshold.amount_cents,
      recurring: a.usage_threshold.recurring,
      created_at: a.usage_threshold.created_at ?? new Date(a.created_at).toISOString(),
      updated_at: a.usage_threshold.updated_at ?? new Date(a.created_at).toISOString(),
    },
  }));
}

/** Lago's LifetimeUsageObject as the message (reached_at absent = null). */
export function lifetimeUsageMessage(view: LifetimeUsageView): M.LifetimeUsage {
  return {
    ...view,
    usage_thresholds: view.usage_thresholds.map((t) => ({
      amount_cents: t.amount_cents,
      completion_ratio: t.completion_ratio,
      ...(t.reached_at ? { reached_at: t.reached_at } : {}),
    })),
  };
}
