import { randomUUID } from "node:crypto";
import { AppError } from "@billing/errors";
import type { AppliedCoupon, AppliedCouponWithCoupon } from "../../domain/applied-coupon";
import {
  appliedCouponTerms,
  appliedCouponViolations,
  initialRemainders,
  isCouponApplicable,
  reuseKeyOf,
  type TermOverrides,
} from "../../domain/applied-coupon-rules";
import type { CatalogDeps } from "../deps";
import { refuseIfInvalid } from "../catalog-record-writes";
import { withCoupons } from "./applied-coupon-refs";
import { refuseOverlappingLimitations } from "./refuse-overlapping-limitations";

export interface ApplyCouponRequest {
  external_customer_id: string;
  coupon_code: string;
  overrides: TermOverrides;
}

const notReusable = () => AppError.validation({ coupon: ["coupon_is_not_reusable"] });

/**
 * POST /applied_coupons, in Lago's order: unknown customer (404), unknown, terminated or expired
 * coupon (404), overlapping limitations (405), non-reusable coupon already applied (422), field
 * errors (422). A fixed amount gives its currency to a customer that has none. The unique
 * reuse_key keeps a non-reusable coupon applied once per customer under concurrency.
 */
export async function createAppliedCoupon(
  deps: CatalogDeps,
  organizationId: string,
  request: ApplyCouponRequest,
  requestId?: string,
): Promise<AppliedCouponWithCoupon> {
  const customer = await deps.customers.find(organizationId, request.external_customer_id, requestId);
  if (!customer) throw AppError.notFound("customer");
  const now = deps.clock.now();
  const coupon = await deps.coupons.findLive(organizationId, request.coupon_code);
  if (!coupon || !isCouponApplicable(coupon, now)) throw AppError.notFound("coupon");
  await refuseOverlappingLimitations(deps, organizationId, coupon, customer.id);

  const id = randomUUID();
  const reuseKey = reuseKeyOf(coupon, customer.id, id);
  if (!coupon.reusable && (await deps.appliedCoupons.reuseKeyTaken(organizationId, reuseKey))) throw notReusable();
  const terms = appliedCouponTerms(coupon, request.overrides);
  refuseIfInvalid(appliedCouponViolations(terms));
  if (coupon.coupon_type === "fixed_amount" && terms.amount_currency && !customer.currency) {
    await deps.customers.ensure(organizationId, customer.external_id, terms.amount_currency, requestId);
  }
  const applied: AppliedCoupon = {
    id,
    organization_id: organizationId,
    coupon_id: coupon.id,
    customer_id: customer.id,
    external_customer_id: customer.external_id,
    status: "active",
    ...terms,
    ...initialRemainders(terms, coupon.coupon_type),
    reuse_key: reuseKey,
    credits: [],
    created_at: now,
    updated_at: now,
    terminated_at: null,
  };
  if ((await deps.appliedCoupons.insert(applied)) === "duplicate") throw notReusable();
  return (await withCoupons(deps, organizationId, [applied]))[0]!;
}
