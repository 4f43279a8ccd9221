import type { CatalogMessages as M } from "@billing/contracts";
import type { CreditRequest } from "../use-cases/applied-coupons/consume-applied-coupon";
import type { ApplyCouponRequest } from "../use-cases/applied-coupons/create-applied-coupon";
import type { AppliedCouponQuery } from "../use-cases/applied-coupons/list-applied-coupons";
import { patchOf } from "./patch-messages";

/** Proto ⇄ domain for applied coupons (replies are the views of `domain/applied-coupon-view.ts`). */

/** The proto AppliedCouponInput → the use case's request (the coupon's terms overridden by those sent). */
export function applyCouponRequestOf(m: M.AppliedCouponInput__Output | null): ApplyCouponRequest {
  return {
    external_customer_id: m?.external_customer_id ?? "",
    coupon_code: m?.coupon_code ?? "",
    overrides: patchOf(m, ["frequency", "frequency_duration", "amount_cents", "amount_currency", "percentage_rate"]),
  };
}

/** ListAppliedCouponsRequest → the use case's query. */
export const appliedCouponQueryOf = (m: M.ListAppliedCouponsRequest__Output): AppliedCouponQuery => ({
  status: m.status,
  externalCustomerId: m.external_customer_id,
  couponCodes: m.coupon_codes,
});

/** ConsumeAppliedCouponRequest → the use case's credit request. */
export const creditRequestOf = (m: M.ConsumeAppliedCouponRequest__Output): CreditRequest => ({
  appliedCouponId: m.applied_coupon_id,
  invoiceId: m.invoice_id,
  amountCents: m.amount_cents,
  amountCurrency: m.amount_currency,
});
