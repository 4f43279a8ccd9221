import type { AppliedCouponRecreditRpc } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import { recreditAppliedCoupon } from "../use-cases/applied-coupons/recredit-applied-coupon";
import type { CatalogDeps } from "../use-cases/deps";

/** AppliedCouponRecreditService: a voided invoice's coupon credit given back. */
export function appliedCouponRecreditHandlers(deps: CatalogDeps): Handlers<AppliedCouponRecreditRpc> {
  return {
    RecreditAppliedCoupon: async (req) => {
      const { applied, recredited } = await recreditAppliedCoupon(deps, req.organization_id, {
        appliedCouponId: req.applied_coupon_id,
        invoiceId: req.invoice_id,
      });
      return {
        recredited,
        status: applied.status,
        ...(applied.amount_cents_remaining === null ? {} : { amount_cents_remaining: applied.amount_cents_remaining }),
        ...(applied.frequency_duration_remaining === null
          ? {}
          : { frequency_duration_remaining: applied.frequency_duration_remaining }),
      };
    },
  };
}
