import { z } from "zod";
import { currencyCode, decimalInput, oneOf } from "../../http/fields";

const code = z.string().trim().min(1).max(255);
const name = z.string().trim().min(1).max(255);
const couponType = oneOf(["fixed_amount", "percentage"]);
const frequency = oneOf(["once", "recurring", "forever"]);
const expiration = oneOf(["no_expiration", "time_limit"]);
/** An ISO 8601 date or date-time. */
const dateTime = z
  .string()
  .refine((v) => /^\d{4}-\d{2}-\d{2}([T ].+)?$/.test(v) && !Number.isNaN(Date.parse(v)), "invalid_date");

/** The `coupon` object of PUT /coupons/{code}: every field optional. */
export const couponUpdateSchema = z.object({
  name: name.optional(),
  code: code.optional(),
  description: z.string().max(1000).nullish(),
  coupon_type: couponType.optional(),
  amount_cents: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullish(),
  amount_currency: currencyCode.nullish,
  percentage_rate: decimalInput.nullish(),
  reusable: z.boolean().optional(),
  frequency: frequency.optional(),
  frequency_duration: z.number().int().min(0).max(10_000).nullish(),
  expiration: expiration.optional(),
  expiration_at: dateTime.nullish(),
  applies_to: z
    .object({
      plan_codes: z.array(z.string().min(1).max(255)).max(100).nullish(),
      billable_metric_codes: z.array(z.string().min(1).max(255)).max(100).nullish(),
    })
    .nullish(),
});

/** The `coupon` object of POST /coupons: name, code, coupon_type, frequency and expiration required. */
export const couponCreateSchema = couponUpdateSchema.extend({
  name,
  code,
  coupon_type: couponType,
  frequency,
  expiration,
});

export type CouponInput = z.infer<typeof couponUpdateSchema>;
