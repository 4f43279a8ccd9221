import { AppError } from "@billing/errors";
import type { CatalogDeps } from "../deps";
import { withMetricCodes, type CouponWithMetrics } from "./coupon-metric-refs";

/** GET /coupons/{code}. */
export async function getCoupon(deps: CatalogDeps, organizationId: string, code: string): Promise<CouponWithMetrics> {
  const coupon = await deps.coupons.findLive(organizationId, code);
  if (!coupon) throw AppError.notFound("coupon");
  return (await withMetricCodes(deps, organizationId, [coupon]))[0]!;
}
