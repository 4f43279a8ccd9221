import type { AppliedCouponWithCoupon } from "../../domain/applied-coupon";
import type { CatalogDeps } from "../deps";
import { withCoupons } from "./applied-coupon-refs";

/** What invoicing applies to a customer's invoice: active applied coupons of coupons not deleted, oldest first. */
export async function listActiveAppliedCoupons(
  deps: CatalogDeps,
  organizationId: string,
  customerId: string,
): Promise<AppliedCouponWithCoupon[]> {
  const active = await deps.appliedCoupons.activeOfCustomer(organizationId, customerId);
  return (await withCoupons(deps, organizationId, active)).filter(({ coupon }) => !coupon.deleted_at);
}
