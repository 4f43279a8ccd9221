import { z } from "zod";
import { calendarDate } from "../../http/fields";

/** Lago's PaymentCreateInput (the payment service judges the invoice and the amount due). */
export const paymentCreateSchema = z.object({
  invoice_id: z.string().min(1).max(255),
  amount_cents: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  reference: z.string().min(1).max(40),
  paid_at: calendarDate.nullish(),
});
