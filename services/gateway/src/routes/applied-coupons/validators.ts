import { z } from "zod";
import { currencyCode, decimalInput, oneOf } from "../../http/fields";

/**
 * The `applied_coupon` object of POST /applied_coupons: the customer and the coupon are required;
 * the other fields override the coupon's values (null keeps the coupon's value, as in Lago).
 */
export const appliedCouponSchema = z.object({
  external_customer_id: z.string().trim().min(1).max(255),
  coupon_code: z.string().trim().min(1).max(255),
  frequency: oneOf(["once", "recurring", "forever"]).nullish(),
  frequency_duration: z.number().int().min(0).max(10_000).nullish(),
  amount_cents: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullish(),
  amount_currency: currencyCode.nullish,
  percentage_rate: decimalInput.nullish(),
});

export type AppliedCouponInput = z.infer<typeof appliedCouponSchema>;
