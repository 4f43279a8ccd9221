import { z } from "zod";
import { instant, text } from "./fields";

/** An invoice as the invoicing service publishes it (the API's InvoiceObjectExtended; consumers read these fields). */
export const invoiceView = z.object({
  svc_id: text,
  number: text,
  status: z.enum(["draft", "finalized", "closed", "voided"]),
  payment_status: z.enum(["pending", "succeeded", "failed"]),
  invoice_type: text,
  currency: text,
  issuing_date: text,
  fees_amount_cents: z.number().int(),
  taxes_amount_cents: z.number().int(),
  total_amount_cents: z.number().int(),
  customer: z.object({ svc_id: text, external_id: text }),
  created_at: instant,
  updated_at: instant,
});
/** billing.invoicing.invoice.created|drafted|finalized (Lago's invoice.created, invoice.drafted, invoice.generated). */
export const invoiceEventData = z.object({ invoice: invoiceView });
export type InvoiceViewData = z.output<typeof invoiceView>;
