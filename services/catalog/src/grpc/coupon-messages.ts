import type { CatalogMessages as M } from "@billing/contracts";
import type { Patch } from "../domain/patch";
import type { Coupon } from "../domain/types";
import { couponView } from "../domain/views";
import type { CouponChange } from "../use-cases/coupons/coupon-change";
import type { CouponWithMetrics } from "../use-cases/coupons/coupon-metric-refs";
import { patchOf } from "./patch-messages";

/** Proto ⇄ domain for coupons. */

/** The proto CouponInput → the use cases' CouponChange (applies_to lists only when sent). */
export function couponChangeOf(m: M.CouponInput__Output | null): CouponChange {
  const { expiration_at, ...fields } = patchOf(m, [
    "name",
    "code",
    "description",
    "coupon_type",
    "amount_cents",
    "amount_currency",
    "percentage_rate",
    "reusable",
    "frequency",
    "frequency_duration",
    "expiration",
    "expiration_at",
  ]);
  const patch: Patch<Coupon> = fields;
  if (expiration_at !== undefined) patch.expiration_at = expiration_at === null ? null : new Date(expiration_at);
  const appliesTo = m?.applies_to;
  if (appliesTo?.plan_codes_set) patch.plan_codes = appliesTo.plan_codes ?? [];
  return {
    patch,
    billableMetricCodes: appliesTo?.billable_metric_codes_set ? (appliesTo.billable_metric_codes ?? []) : undefined,
  };
}

/** A coupon with the live codes of its metrics → the proto Coupon. */
export const couponMessage = ({ coupon, billableMetricCodes }: CouponWithMetrics) =>
  couponView(coupon, billableMetricCodes);
