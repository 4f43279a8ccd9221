import { z } from "zod";
import { oneOf } from "../../http/fields";

/** Lago's PaymentRequestCreateInput (the payment service judges the customer and the invoices). */
export const paymentRequestCreateSchema = z.object({
  external_customer_id: z.string().min(1).max(255),
  email: z.email().max(255),
  svc_invoice_ids: z.array(z.string().min(1).max(255)).min(1).max(1000),
});

/** GET /payment_requests filters. */
export const paymentRequestListQuery = z.object({
  external_customer_id: z.string().min(1).max(255).optional(),
  payment_status: oneOf(["pending", "succeeded", "failed"]).optional(),
});
