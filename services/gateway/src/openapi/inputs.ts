import { z } from "zod";
import { MAX_PROPERTIES_DEPTH } from "@billing/contracts";

/**
 * Inputs the gateway reads without a zod validator of its own, described for the OpenAPI document
 * only: the page (`pageQuery`), single-string filters (`stringParam`), and the usage events' bodies,
 * which the gateway passes through to the usage service (`services/usage/src/domain/event-validation.ts`
 * checks them, by hand, on the hot path). Keep them in step with those functions.
 */

/** `pageQuery`: ?page (default 1) and ?per_page (default 100, capped at 1000); anything else reads as the default. */
export const pageParams = z.object({
  page: z.number().int().min(1).optional().describe("the page, from 1 (default 1)"),
  per_page: z.number().int().min(1).max(1000).optional().describe("items per page (default 100, at most 1000)"),
});

/** `stringParam` filters: one string each, empty = no filter. */
const filter = (description: string) => z.string().optional().describe(description);

export const walletListQuery = z.object({ external_customer_id: filter("the customer's wallets only") });
export const walletTransactionListQuery = z.object({
  status: filter("pending, settled or failed"),
  transaction_status: filter("purchased, granted, voided or invoiced"),
  transaction_type: filter("inbound or outbound"),
});
export const paymentListQuery = z.object({
  external_customer_id: filter("the customer's payments only"),
  invoice_id: filter("the invoice's payments only"),
});
export const featureListQuery = z.object({ search_term: filter("features whose code or name contains it") });
/** `toListMessage` (applied coupons): `coupon_code[]` may be repeated. */
export const appliedCouponListQuery = z.object({
  status: filter("active or terminated"),
  external_customer_id: filter("the customer's applied coupons only"),
  coupon_code: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .describe("one coupon code, or several (`coupon_code[]=a&coupon_code[]=b`)"),
});

const DECIMAL = /^-?\d+(\.\d+)?$/;
const identifier = z.union([z.string().min(1), z.number()]);

/** One usage event (Lago's EventInputObject), as the usage service checks it. */
export const eventInput = z
  .object({
    transaction_id: identifier.describe(
      "the event's idempotency key: a second event with it (same subscription) is not counted again",
    ),
    external_subscription_id: identifier.describe("the subscription the usage belongs to"),
    code: identifier.describe("the billable metric's code"),
    timestamp: z
      .union([z.number(), z.string().regex(DECIMAL)])
      .nullish()
      .describe(
        "when it happened, Unix seconds (decimals allowed); absent: when received (a sandbox organization's clock time)",
      ),
    properties: z
      .record(z.string(), z.unknown())
      .nullish()
      .describe(
        `what the metric aggregates (its field_name) and filters on; objects and arrays nested at most ${MAX_PROPERTIES_DEPTH} levels`,
      ),
    precise_total_amount_cents: z
      .union([z.string().regex(DECIMAL), z.number()])
      .nullish()
      .describe("for dynamic charges: the amount this event bills"),
  })
  .meta({ id: "EventInputObject", description: "A usage event." });
