import type { CatalogMessages as M } from "@billing/contracts";
import { or } from "./presenting";
import type { appliedCouponObject, ViewOf } from "./schemas";

/** Lago's CreditObject. */
export function presentCredit(c: M.Credit__Output) {
  return {
    svc_id: c.svc_id,
    amount_cents: c.amount_cents,
    amount_currency: c.amount_currency,
    before_taxes: c.before_taxes,
    item: { svc_item_id: c.item?.svc_item_id, type: c.item?.type, code: c.item?.code, name: c.item?.name },
    invoice: { svc_id: c.invoice?.svc_id, payment_status: c.invoice?.payment_status },
  };
}

/** Lago's AppliedCouponObject (every key present, null where Lago sends null); list items add `credits`. */
export function presentAppliedCoupon(a: M.AppliedCoupon__Output, options: { withCredits?: boolean } = {}) {
  const view = {
    svc_id: a.svc_id,
    svc_coupon_id: a.svc_coupon_id,
    coupon_code: a.coupon_code,
    coupon_name: a.coupon_name,
    svc_customer_id: a.svc_customer_id,
    external_customer_id: a.external_customer_id,
    status: a.status,
    amount_cents: or(a.amount_cents),
    amount_cents_remaining: or(a.amount_cents_remaining),
    amount_currency: or(a.amount_currency),
    percentage_rate: or(a.percentage_rate),
    frequency: a.frequency,
    frequency_duration: or(a.frequency_duration),
    frequency_duration_remaining: or(a.frequency_duration_remaining),
    expiration_at: or(a.expiration_at),
    created_at: a.created_at,
    terminated_at: or(a.terminated_at),
    coupon_status: a.coupon_status,
    coupon_deleted_at: or(a.coupon_deleted_at),
  } satisfies ViewOf<typeof appliedCouponObject>;
  return options.withCredits ? { ...view, credits: (a.credits ?? []).map(presentCredit) } : view;
}
