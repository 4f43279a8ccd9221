import type { CatalogMessages, CatalogRpc } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import { pageMeta, pageRequestOf } from "@billing/mongo";
import type { Patch } from "../domain/patch";
import type { Coupon } from "../domain/types";
import { couponView } from "../domain/views";
import type { CouponWithMetrics } from "../use-cases/coupons/coupon-metric-refs";
import { createCoupon, type CouponChange } from "../use-cases/coupons/create-coupon";
import { getCoupon } from "../use-cases/coupons/get-coupon";
import { listCoupons } from "../use-cases/coupons/list-coupons";
import { terminateCoupon } from "../use-cases/coupons/terminate-coupon";
import { updateCoupon } from "../use-cases/coupons/update-coupon";
import type { CatalogDeps } from "../use-cases/deps";
import { patchOf } from "./patch-messages";

type Key = { organization_id: string; code: string };
type Input = CatalogMessages.CouponInput__Output;

function couponChange(input: Input | null): CouponChange {
  const fields = patchOf(input, [
    "name", "code", "description", "coupon_type", "amount_cents", "amount_currency", "percentage_rate", "reusable",
    "frequency", "frequency_duration", "expiration", "expiration_at",
  ]);
  const patch = { ...fields } as Patch<Coupon>;
  if (typeof fields.expiration_at === "string") patch.expiration_at = new Date(fields.expiration_at);
  const appliesTo = input?.applies_to;
  if (appliesTo?.plan_codes_set) patch.plan_codes = appliesTo.plan_codes ?? [];
  return { patch, billableMetricCodes: appliesTo?.billable_metric_codes_set ? (appliesTo.billable_metric_codes ?? []) : undefined };
}

const view = ({ coupon, billableMetricCodes }: CouponWithMetrics) => couponView(coupon, billableMetricCodes);

/** billing.catalog.v1.CouponService: proto in, use case, proto out. */
export function couponHandlers(deps: CatalogDeps): Handlers<CatalogRpc["coupons"]> {
  return {
    CreateCoupon: async (req) => ({
      coupon: view(await createCoupon(deps, req.organization_id, couponChange(req.coupon))),
    }),
    GetCoupon: async (req) => ({ coupon: view(await getCoupon(deps, req.organization_id, req.code)) }),
    UpdateCoupon: async (req) => ({
      coupon: view(await updateCoupon(deps, req.organization_id, req.code, couponChange(req.coupon))),
    }),
    DeleteCoupon: async (req) => ({ coupon: view(await terminateCoupon(deps, req.organization_id, req.code)) }),
    ListCoupons: async (req) => {
      const page = pageRequestOf(req);
      const { items, total } = await listCoupons(deps, req.organization_id, page);
      return { coupons: items.map(view), meta: pageMeta(total, page) };
    },
  };
}
