import { AppError } from "@billing/errors";
import type { CatalogDeps } from "../deps";

/** A coupon limited to plans names live plans of its organization; any unknown code → 404 plans_not_found (Lago's code). */
export async function refuseUnknownPlans(
  deps: CatalogDeps,
  organizationId: string,
  planCodes: string[],
): Promise<void> {
  const codes = [...new Set(planCodes)];
  if (codes.length === 0) return;
  const found = new Set((await deps.plans.findLiveByCodes(organizationId, codes)).map((p) => p.code));
  if (codes.some((code) => !found.has(code))) throw AppError.notFound("plans");
}
