import { derivedUuid } from "@billing/bus";
import { AppError } from "@billing/errors";
import { usageThresholdsProgress } from "@billing/pricing";
import type { Invoice } from "../../domain/invoice";
import { lifetimeState, progressiveUsageCents, type PlanThreshold } from "../../domain/progressive-billing";
import type { ProgressiveDeps } from "./deps";
import { copyOf, currentChargesPeriod } from "./check-usage-thresholds";

type LifetimeUsageDeps = Pick<ProgressiveDeps, "clock" | "copies" | "progressive" | "usage">;

/** Lago's LifetimeUsageObject. */
export interface LifetimeUsageView {
  svc_id: string;
  svc_subscription_id: string;
  external_subscription_id: string;
  external_historical_usage_amount_cents: number;
  invoiced_usage_amount_cents: number;
  current_usage_amount_cents: number;
  from_datetime: string;
  to_datetime: string;
  usage_thresholds: Array<{ amount_cents: number; completion_ratio: number; reached_at: string | null }>;
}

/** When a threshold step was reached: the progressive invoice that applied it (the earliest at or beyond that amount for a recurring one). */
function reachedAt(invoices: readonly Invoice[], threshold: PlanThreshold, amountCents: number): Date | null {
  const applied = invoices
    .flatMap((i) => i.applied_usage_thresholds ?? [])
    .filter(
      (a) =>
        a.usage_threshold.svc_id === threshold.svc_id &&
        (!threshold.recurring || a.lifetime_usage_amount_cents >= amountCents),
    )
    .map((a) => new Date(a.created_at));
  if (applied.length === 0) return null;
  return threshold.recurring ? new Date(Math.min(...applied.map(Number))) : new Date(Math.max(...applied.map(Number)));
}

/**
 * GET /subscriptions/{external_id}/lifetime_usage: historical + invoiced + current usage of the
 * subscription's external id (across upgrades) and where it stands against its thresholds. Keyed
 * reads, one invoice query and one usage call.
 */
export async function getLifetimeUsage(
  deps: LifetimeUsageDeps,
  organizationId: string,
  externalSubscriptionId: string,
): Promise<LifetimeUsageView> {
  const found = await copyOf(deps, organizationId, externalSubscriptionId, false);
  if (!found) throw AppError.notFound("lifetime_usage");
  const { copy, externalCustomerId } = found;
  const now = deps.clock.now();
  const period = currentChargesPeriod(copy, now);
  const active = copy.subscription.status === "active";
  const [usage, invoices, historical] = await Promise.all([
    active
      ? deps.usage.chargeUsage(
          [
            {
              organizationId,
              subscriptionId: copy.id,
              externalSubscriptionId,
              from: period.from_datetime,
              to: period.to_datetime,
              periodDays: period.period_days,
              billedDays: period.billed_days,
            },
          ],
          false,
        )
      : Promise.resolve([]),
    deps.progressive.invoicesOf(organizationId, externalCustomerId, externalSubscriptionId),
    deps.progressive.historicalUsage(organizationId, externalSubscriptionId),
  ]);
  const state = lifetimeState(
    invoices,
    externalSubscriptionId,
    period.from_datetime,
    historical.historical_usage_amount_cents,
  );
  const current = active ? progressiveUsageCents(copy, usage[0]?.fees ?? []) : 0;
  const total = state.historical_usage_cents + state.invoiced_usage_cents + current;
  // progressive_billing_disabled: no threshold applies to it (Lago's applicable_usage_thresholds)
  const thresholds = copy.subscription.progressive_billing_disabled ? [] : (copy.plan.usage_thresholds ?? []);
  return {
    svc_id: derivedUuid(`lifetime_usage|${organizationId}|${externalSubscriptionId}`),
    svc_subscription_id: copy.id,
    external_subscription_id: externalSubscriptionId,
    external_historical_usage_amount_cents: state.historical_usage_cents,
    invoiced_usage_amount_cents: state.invoiced_usage_cents,
    current_usage_amount_cents: current,
    from_datetime: new Date(copy.subscription.subscription_at).toISOString(),
    to_datetime: now.toISOString(),
    usage_thresholds: usageThresholdsProgress(thresholds, total).map((p) => ({
      amount_cents: p.amount_cents,
      completion_ratio: p.completion_ratio,
      reached_at: p.reached ? (reachedAt(invoices, p.threshold, p.amount_cents) ?? now).toISOString() : null,
    })),
  };
}

/** PUT /subscriptions/{external_id}/lifetime_usage: the imported historical usage (an integer ≥ 0), then the lifetime usage as GET shows it. */
export async function updateLifetimeUsage(
  deps: LifetimeUsageDeps,
  organizationId: string,
  externalSubscriptionId: string,
  historicalCents: number,
): Promise<LifetimeUsageView> {
  const found = await copyOf(deps, organizationId, externalSubscriptionId, false);
  if (!found) throw AppError.notFound("lifetime_usage");
  if (!Number.isSafeInteger(historicalCents) || historicalCents < 0) {
    throw AppError.validation({ external_historical_usage_amount_cents: ["value_is_out_of_range"] });
  }
  await deps.progressive.setHistoricalUsage(organizationId, externalSubscriptionId, historicalCents, deps.clock.now());
  return getLifetimeUsage(deps, organizationId, externalSubscriptionId);
}
