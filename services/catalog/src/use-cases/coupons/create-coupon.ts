import { randomUUID } from "node:crypto";
import type { Coupon } from "../../domain/types";
import type { CatalogDeps } from "../deps";
import { insertRecord } from "../catalog-record-writes";
import { changedCoupon, type CouponChange } from "./coupon-change";
import { withMetricCodes, type CouponWithMetrics } from "./coupon-metric-refs";

/** POST /coupons. */
export async function createCoupon(
  deps: CatalogDeps,
  organizationId: string,
  change: CouponChange,
): Promise<CouponWithMetrics> {
  const now = deps.clock.now();
  const blank: Coupon = {
    id: randomUUID(),
    organization_id: organizationId,
    code: "",
    name: "",
    description: null,
    coupon_type: "",
    amount_cents: null,
    amount_currency: null,
    percentage_rate: null,
    reusable: true,
    frequency: "",
    frequency_duration: null,
    expiration: "",
    expiration_at: null,
    plan_codes: [],
    billable_metric_ids: [],
    limited_plans: false,
    limited_billable_metrics: false,
    status: "active",
    terminated_at: null,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
  const coupon = await changedCoupon(deps, blank, change, now);
  await insertRecord(deps.coupons, coupon);
  return (await withMetricCodes(deps, organizationId, [coupon]))[0]!;
}
