import type { AppliedCouponCredit, AppliedCouponWithCoupon, CouponSummary } from "./applied-coupon";

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Lago's CreditObject of a coupon credit (invoicing does not exist yet: payment_status stays pending). */
export function appliedCouponCreditView(credit: AppliedCouponCredit, coupon: CouponSummary) {
  return {
    svc_id: credit.id,
    amount_cents: credit.amount_cents,
    amount_currency: credit.amount_currency,
    before_taxes: true,
    item: { svc_item_id: coupon.id, type: "coupon", code: coupon.code, name: coupon.name },
    invoice: { svc_id: credit.invoice_id, payment_status: "pending" },
    created_at: credit.created_at.toISOString(),
  };
}

/**
 * The public view of an applied coupon (Lago's serializer: amount_cents_remaining only for a
 * fixed amount used once), with its credits and what invoicing needs of the coupon.
 */
export function appliedCouponView({ applied: a, coupon, billableMetricCodes }: AppliedCouponWithCoupon) {
  return {
    svc_id: a.id,
    svc_coupon_id: coupon.id,
    coupon_code: coupon.code,
    coupon_name: coupon.name,
    svc_customer_id: a.customer_id,
    external_customer_id: a.external_customer_id,
    status: a.status,
    frequency: a.frequency,
    created_at: a.created_at.toISOString(),
    coupon_status: coupon.status,
    coupon_deleted_at: iso(coupon.deleted_at),
    amount_cents: a.amount_cents,
    amount_cents_remaining:
      a.frequency === "once" && coupon.coupon_type === "fixed_amount" ? a.amount_cents_remaining : null,
    amount_currency: a.amount_currency,
    percentage_rate: a.percentage_rate,
    frequency_duration: a.frequency_duration,
    frequency_duration_remaining: a.frequency_duration_remaining,
    expiration_at: iso(coupon.expiration_at),
    terminated_at: iso(a.terminated_at),
    credits: a.credits.map((c) => appliedCouponCreditView(c, coupon)),
    coupon_type: coupon.coupon_type,
    plan_codes: [...coupon.plan_codes],
    billable_metric_codes: billableMetricCodes,
  };
}
export type AppliedCouponView = ReturnType<typeof appliedCouponView>;
