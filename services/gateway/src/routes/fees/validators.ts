import { FEE_TYPES } from "@billing/codes";
import { z } from "zod";

/** An instant or a date (Lago's *_from / *_to filters). */
const instant = z.string().refine((v) => !Number.isNaN(Date.parse(v)), "invalid_date");

/** GET /fees filters (Lago's names). */
export const feeListQuery = z.object({
  external_customer_id: z.string().optional(),
  external_subscription_id: z.string().optional(),
  event_transaction_id: z.string().optional(),
  currency: z.string().optional(),
  fee_type: z.enum(FEE_TYPES).optional(),
  billable_metric_code: z.string().optional(),
  payment_status: z.enum(["pending", "succeeded", "failed", "refunded"]).optional(),
  created_at_from: instant.optional(),
  created_at_to: instant.optional(),
  succeeded_at_from: instant.optional(),
  succeeded_at_to: instant.optional(),
  failed_at_from: instant.optional(),
  failed_at_to: instant.optional(),
  refunded_at_from: instant.optional(),
  refunded_at_to: instant.optional(),
});

/** PUT /fees/{id}: Lago's FeeUpdateInput. */
export const feeUpdate = z.object({
  payment_status: z.enum(["pending", "succeeded", "failed", "refunded"]),
});
