import { z } from "zod";
import { feeObject } from "./invoices";

/**
 * A fee as /fees answers it (Lago's FeeObject): a fee of an invoice, or a pay-in-advance fee a
 * usage event created, which may wait for its invoice (`svc_invoice_id` null), has its own payment
 * status and names its event.
 */
export const listedFeeObject = feeObject
  .extend({
    svc_invoice_id: z.string().nullable(),
    event_transaction_id: z.string().nullable(),
    payment_status: z.enum(["pending", "succeeded", "failed", "refunded"]),
    pricing_unit_details: z.null(),
  })
  .meta({
    id: "ListedFeeObject",
    description:
      "A fee: of an invoice, or a pay-in-advance fee created by a usage event (waiting for its invoice when svc_invoice_id is null).",
  });
