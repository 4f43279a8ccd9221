import { AppError } from "@billing/errors";
import { skipOf, type PageRequest } from "@billing/mongo";
import { customerUsage, type CustomerUsageView } from "../../domain/customer-usage";
import type { UsageDeps } from "./deps";

export interface PastUsageQuery {
  externalCustomerId: string;
  externalSubscriptionId: string;
  billableMetricCode?: string;
  periodsCount?: number;
}

/** How many billed periods past usage reads at most. */
const MAX_PERIODS = 1_000;

/**
 * GET /customers/{id}/past_usage: the subscription's billed charges periods, newest first, as its
 * (visible) invoices priced them: each period's charge fees, optionally one metric's only.
 */
export async function getPastUsage(
  deps: Pick<UsageDeps, "copies" | "invoices">,
  organizationId: string,
  query: PastUsageQuery,
  page: PageRequest,
): Promise<{ items: CustomerUsageView[]; total: number }> {
  if (!(await deps.copies.customerByExternalId(organizationId, query.externalCustomerId)))
    throw AppError.notFound("customer");
  const limit = Math.min(query.periodsCount && query.periodsCount > 0 ? query.periodsCount : MAX_PERIODS, MAX_PERIODS);
  const invoices = await deps.invoices.billedPeriodsOf(
    organizationId,
    query.externalCustomerId,
    query.externalSubscriptionId,
    limit,
  );
  const plans = new Map<string, Awaited<ReturnType<typeof deps.copies.subscription>>>();
  const periods: CustomerUsageView[] = [];
  for (const invoice of invoices) {
    for (const line of invoice.lines) {
      if (line.external_subscription_id !== query.externalSubscriptionId || !line.charges_from || !line.charges_to)
        continue;
      if (!plans.has(line.subscription_id))
        plans.set(line.subscription_id, await deps.copies.subscription(line.subscription_id));
      const fees = invoice.fees.filter(
        (f) =>
          f.subscription_id === line.subscription_id &&
          f.fee_type === "charge" &&
          (!query.billableMetricCode || f.billable_metric_code === query.billableMetricCode),
      );
      periods.push(
        customerUsage({
          from: line.charges_from,
          to: line.charges_to,
          issuing_date: invoice.issuing_date,
          invoice_id: invoice.id,
          currency: invoice.currency,
          fees,
          taxes_amount_cents: fees.reduce((n, f) => n + (f.true_up ? 0 : f.taxes_amount_cents), 0),
          charges: plans.get(line.subscription_id)?.plan.charges ?? [],
        }),
      );
    }
  }
  const kept = periods.slice(0, limit);
  return { items: kept.slice(skipOf(page), skipOf(page) + page.perPage), total: kept.length };
}
