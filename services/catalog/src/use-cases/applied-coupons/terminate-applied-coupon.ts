import { AppError } from "@billing/errors";
import type { AppliedCouponWithCoupon } from "../../domain/applied-coupon";
import type { CatalogDeps } from "../deps";
import { withCoupons } from "./applied-coupon-refs";

/** DELETE /customers/{external_customer_id}/applied_coupons/{id}: terminates it (again is harmless) and returns it. */
export async function terminateAppliedCoupon(
  deps: CatalogDeps,
  organizationId: string,
  externalCustomerId: string,
  appliedCouponId: string,
  requestId?: string,
): Promise<AppliedCouponWithCoupon> {
  const customer = await deps.customers.find(organizationId, externalCustomerId, requestId);
  if (!customer) throw AppError.notFound("customer");
  const current = await deps.appliedCoupons.find(organizationId, appliedCouponId, customer.id);
  if (!current) throw AppError.notFound("applied_coupon");
  if (current.status === "active") await deps.appliedCoupons.terminate(organizationId, current.id, deps.clock.now());
  const terminated = (await deps.appliedCoupons.find(organizationId, current.id, customer.id)) ?? current;
  return (await withCoupons(deps, organizationId, [terminated]))[0]!;
}
