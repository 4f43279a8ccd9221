/** A coupon applied to a customer, as stored and handled by the use cases. */

export const APPLIED_COUPON_STATUSES = ["active", "terminated"] as const;
export type AppliedCouponStatus = (typeof APPLIED_COUPON_STATUSES)[number];

/** The credit one invoice took from an applied coupon (Lago's Credit of item type coupon). */
export interface AppliedCouponCredit {
  id: string;
  invoice_id: string;
  amount_cents: number;
  amount_currency: string;
  created_at: Date;
}

/** What an applied coupon grants: the coupon's values, overridden by what the client sent. */
export interface AppliedCouponTerms {
  amount_cents: number | null;
  amount_currency: string | null;
  /** Percent, a decimal string. */
  percentage_rate: string | null;
  frequency: string;
  frequency_duration: number | null;
}

export interface AppliedCoupon extends AppliedCouponTerms {
  id: string;
  organization_id: string;
  coupon_id: string;
  customer_id: string;
  external_customer_id: string;
  status: AppliedCouponStatus;
  /** What is left of a fixed amount used once (null for every other kind). */
  amount_cents_remaining: number | null;
  frequency_duration_remaining: number | null;
  /**
   * Unique per organization: "<coupon id>/<customer id>" when the coupon is not reusable (so it is
   * applied once per customer, even under concurrency), the applied coupon's own id otherwise.
   */
  reuse_key: string;
  credits: AppliedCouponCredit[];
  /** the voided invoices whose credits were given back (each once; absent before any) */
  recredited_invoice_ids?: string[];
  created_at: Date;
  updated_at: Date;
  terminated_at: Date | null;
}

/** The coupon's side of an applied coupon's view (read with deleted coupons included). */
export interface CouponSummary {
  id: string;
  code: string;
  name: string;
  coupon_type: string;
  status: string;
  reusable: boolean;
  expiration_at: Date | null;
  deleted_at: Date | null;
  plan_codes: string[];
  billable_metric_ids: string[];
}

/** An applied coupon with its coupon and the live codes of the metrics the coupon is limited to. */
export interface AppliedCouponWithCoupon {
  applied: AppliedCoupon;
  coupon: CouponSummary;
  billableMetricCodes: string[];
}
