import type { PricedLine } from "../../domain/invoice-fees";
import type { ProgressiveCredit } from "../../domain/invoice";
import {
  latestProgressiveInvoice,
  mergedProgressiveCredit,
  progressiveCreditFrom,
} from "../../domain/progressive-billing";
import type { ProgressiveDeps } from "./deps";

/**
 * What a subscription invoice (periodic, termination, upgrade) subtracts for the progressive
 * invoices of the charges periods it bills (billing-rules §3.2, §5): per line billing usage of a
 * plan with usage thresholds, the latest progressive invoice of that period credits its fees
 * (less its coupons). One invoice query per such line; none for plans without thresholds.
 */
export async function progressiveCreditOf(
  deps: Pick<ProgressiveDeps, "progressive">,
  organizationId: string,
  externalCustomerId: string,
  lines: readonly PricedLine[],
): Promise<ProgressiveCredit | null> {
  const credits = await Promise.all(
    lines.map(async ({ copy, line }) => {
      if (!line.charges_from || (copy.plan.usage_thresholds ?? []).length === 0) return null;
      const invoices = await deps.progressive.invoicesOf(
        organizationId,
        externalCustomerId,
        line.external_subscription_id,
      );
      const latest = latestProgressiveInvoice(invoices, line.external_subscription_id, line.charges_from);
      return latest ? progressiveCreditFrom(latest, copy.id) : null;
    }),
  );
  return mergedProgressiveCredit(credits.filter((c): c is ProgressiveCredit => !!c));
}
