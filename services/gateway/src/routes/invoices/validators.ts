import { z } from "zod";

const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "invalid_date");

/** GET /invoices filters (Lago's names; a single value or the first of a `[]` list). */
const statuses = z.enum(["draft", "finalized", "voided", "failed", "pending"]);
const paymentStatuses = z.enum(["pending", "succeeded", "failed"]);
const list = <T extends z.ZodType>(item: T) => z.union([item, z.array(item)]).transform((v) => (Array.isArray(v) ? v : [v]) as Array<z.output<T>>);

export const invoiceListQuery = z.object({
  statuses: list(statuses).optional(),
  payment_statuses: list(paymentStatuses).optional(),
  external_customer_id: z.string().optional(),
  status: statuses.optional(),
  payment_status: z.enum(["pending", "succeeded", "failed"]).optional(),
  invoice_type: z.enum(["subscription", "add_on", "credit", "one_off", "progressive_billing"]).optional(),
  issuing_date_from: date.optional(),
  issuing_date_to: date.optional(),
});

export const currentUsageQuery = z.object({ external_subscription_id: z.string().min(1, "value_is_mandatory") });
