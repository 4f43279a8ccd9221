import type { CatalogRpc } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import { pageMeta, pageRequestOf } from "@billing/mongo";
import { appliedCouponCreditView, appliedCouponView } from "../domain/applied-coupon-view";
import type { TermOverrides } from "../domain/applied-coupon-rules";
import { consumeAppliedCoupon } from "../use-cases/applied-coupons/consume-applied-coupon";
import { createAppliedCoupon } from "../use-cases/applied-coupons/create-applied-coupon";
import { listActiveAppliedCoupons } from "../use-cases/applied-coupons/list-active-applied-coupons";
import { listAppliedCoupons } from "../use-cases/applied-coupons/list-applied-coupons";
import { terminateAppliedCoupon } from "../use-cases/applied-coupons/terminate-applied-coupon";
import type { CatalogDeps } from "../use-cases/deps";
import { patchOf } from "./patch-messages";

type Org = { organization_id: string };

const OVERRIDES = ["frequency", "frequency_duration", "amount_cents", "amount_currency", "percentage_rate"] as const;

/** billing.catalog.v1.AppliedCouponService: proto in, use case, proto out. */
export function appliedCouponHandlers(deps: CatalogDeps): Handlers<CatalogRpc["appliedCoupons"]> {
  return {
    CreateAppliedCoupon: async (req, ctx) => {
      const input = req.applied_coupon;
      const request = {
        external_customer_id: input?.external_customer_id ?? "",
        coupon_code: input?.coupon_code ?? "",
        overrides: patchOf(input, OVERRIDES) as TermOverrides,
      };
      return { applied_coupon: appliedCouponView(await createAppliedCoupon(deps, req.organization_id, request, ctx.requestId)) };
    },
    ListAppliedCoupons: async (req, ctx) => {
      const page = pageRequestOf(req);
      const query = { status: req.status, externalCustomerId: req.external_customer_id, couponCodes: req.coupon_codes };
      const { items, total } = await listAppliedCoupons(deps, req.organization_id, query, page, ctx.requestId);
      return { applied_coupons: items.map(appliedCouponView), meta: pageMeta(total, page) };
    },
    TerminateAppliedCoupon: async (req, ctx) => ({
      applied_coupon: appliedCouponView(
        await terminateAppliedCoupon(deps, req.organization_id, req.external_customer_id, req.applied_coupon_id, ctx.requestId),
      ),
    }),
    ListActiveAppliedCouponsForCustomer: async (req) => ({
      applied_coupons: (await listActiveAppliedCoupons(deps, req.organization_id, req.customer_id)).map(appliedCouponView),
    }),
    ConsumeAppliedCoupon: async (req) => {
      const { credit, appliedCoupon } = await consumeAppliedCoupon(deps, req.organization_id, {
        appliedCouponId: req.applied_coupon_id, invoiceId: req.invoice_id, amountCents: req.amount_cents, amountCurrency: req.amount_currency,
      });
      return { credit: appliedCouponCreditView(credit, appliedCoupon.coupon), applied_coupon: appliedCouponView(appliedCoupon) };
    },
  };
}
