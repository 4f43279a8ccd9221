import type { CatalogRpc } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import { pageMeta, pageRequestOf } from "@billing/mongo";
import { appliedCouponCreditView, appliedCouponView } from "../domain/applied-coupon-view";
import { consumeAppliedCoupon } from "../use-cases/applied-coupons/consume-applied-coupon";
import { createAppliedCoupon } from "../use-cases/applied-coupons/create-applied-coupon";
import { listActiveAppliedCoupons } from "../use-cases/applied-coupons/list-active-applied-coupons";
import { listAppliedCoupons } from "../use-cases/applied-coupons/list-applied-coupons";
import { terminateAppliedCoupon } from "../use-cases/applied-coupons/terminate-applied-coupon";
import type { CatalogDeps } from "../use-cases/deps";
import { appliedCouponQueryOf, applyCouponRequestOf, creditRequestOf } from "./applied-coupon-messages";

/** billing.catalog.v1.AppliedCouponService: proto in, use case, proto out. */
export function appliedCouponHandlers(deps: CatalogDeps): Handlers<CatalogRpc["appliedCoupons"]> {
  return {
    CreateAppliedCoupon: async (req, ctx) => ({
      applied_coupon: appliedCouponView(
        await createAppliedCoupon(deps, req.organization_id, applyCouponRequestOf(req.applied_coupon), ctx.requestId),
      ),
    }),
    ListAppliedCoupons: async (req, ctx) => {
      const page = pageRequestOf(req);
      const { items, total } = await listAppliedCoupons(
        deps,
        req.organization_id,
        appliedCouponQueryOf(req),
        page,
        ctx.requestId,
      );
      return { applied_coupons: items.map(appliedCouponView), meta: pageMeta(total, page) };
    },
    TerminateAppliedCoupon: async (req, ctx) => ({
      applied_coupon: appliedCouponView(
        await terminateAppliedCoupon(
          deps,
          req.organization_id,
          req.external_customer_id,
          req.applied_coupon_id,
          ctx.requestId,
        ),
      ),
    }),
    ListActiveAppliedCouponsForCustomer: async (req) => ({
      applied_coupons: (await listActiveAppliedCoupons(deps, req.organization_id, req.customer_id)).map(
        appliedCouponView,
      ),
    }),
    ConsumeAppliedCoupon: async (req) => {
      const { credit, appliedCoupon } = await consumeAppliedCoupon(deps, req.organization_id, creditRequestOf(req));
      return {
        credit: appliedCouponCreditView(credit, appliedCoupon.coupon),
        applied_coupon: appliedCouponView(appliedCoupon),
      };
    },
  };
}
