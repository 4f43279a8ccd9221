import type { CatalogRpc } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import { pageMeta, pageRequestOf } from "@billing/mongo";
import { createCoupon } from "../use-cases/coupons/create-coupon";
import { getCoupon } from "../use-cases/coupons/get-coupon";
import { listCoupons } from "../use-cases/coupons/list-coupons";
import { terminateCoupon } from "../use-cases/coupons/terminate-coupon";
import { updateCoupon } from "../use-cases/coupons/update-coupon";
import type { CatalogDeps } from "../use-cases/deps";
import { couponChangeOf, couponMessage } from "./coupon-messages";

/** billing.catalog.v1.CouponService: proto in, use case, proto out. */
export function couponHandlers(deps: CatalogDeps): Handlers<CatalogRpc["coupons"]> {
  return {
    CreateCoupon: async (req) => ({
      coupon: couponMessage(await createCoupon(deps, req.organization_id, couponChangeOf(req.coupon))),
    }),
    GetCoupon: async (req) => ({ coupon: couponMessage(await getCoupon(deps, req.organization_id, req.code)) }),
    UpdateCoupon: async (req) => ({
      coupon: couponMessage(await updateCoupon(deps, req.organization_id, req.code, couponChangeOf(req.coupon))),
    }),
    DeleteCoupon: async (req) => ({
      coupon: couponMessage(await terminateCoupon(deps, req.organization_id, req.code)),
    }),
    ListCoupons: async (req) => {
      const page = pageRequestOf(req);
      const { items, total } = await listCoupons(deps, req.organization_id, page);
      return { coupons: items.map(couponMessage), meta: pageMeta(total, page) };
    },
  };
}
