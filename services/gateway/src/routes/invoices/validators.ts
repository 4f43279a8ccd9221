import { z } from "zod";
import { calendarDate } from "../../http/fields";

/** GET /invoices filters (Lago's names; a single value or the first of a `[]` list). */
const statuses = z.enum(["draft", "finalized", "voided", "failed", "pending"]);
const paymentStatuses = z.enum(["pending", "succeeded", "failed"]);
const list = <T extends z.ZodType>(item: T) =>
  z.union([item, z.array(item)]).transform((v) => (Array.isArray(v) ? v : [v]) as Array<z.output<T>>);

export const invoiceListQuery = z.object({
  statuses: list(statuses).optional(),
  payment_statuses: list(paymentStatuses).optional(),
  external_customer_id: z.string().optional(),
  status: statuses.optional(),
  payment_status: z.enum(["pending", "succeeded", "failed"]).optional(),
  invoice_type: z
    .enum(["subscription", "add_on", "credit", "one_off", "advance_charges", "progressive_billing"])
    .optional(),
  issuing_date_from: calendarDate.optional(),
  issuing_date_to: calendarDate.optional(),
});

export const currentUsageQuery = z.object({ external_subscription_id: z.string().min(1, "value_is_mandatory") });

/** GET /customers/{id}/past_usage: the subscription, and optionally one metric and how many periods. */
export const pastUsageQuery = z.object({
  external_subscription_id: z.string().min(1, "value_is_mandatory"),
  billable_metric_code: z.string().min(1).optional(),
  periods_count: z
    .string()
    .regex(/^\d+$/, "value_is_invalid")
    .transform(Number)
    .pipe(z.number().int().min(1).max(1000))
    .optional(),
});

/** PUT /invoices/{id}: Lago's InvoiceUpdateInput (payment status, metadata replaced as a list). */
export const invoiceUpdate = z.object({
  payment_status: paymentStatuses.optional(),
  metadata: z
    .array(
      z.object({
        id: z.string().min(1).optional(),
        key: z.string().min(1, "value_is_mandatory"),
        value: z.string().max(140, "value_is_too_long"),
      }),
    )
    .max(50, "too_many_metadata")
    .optional(),
});
