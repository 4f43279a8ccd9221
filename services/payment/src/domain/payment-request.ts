import type { CustomerMessages, InvoicingMessages } from "@billing/contracts";
import { sumCents } from "@billing/pricing";
/**
 * A payment request (Lago's PaymentRequestObject): a customer's overdue invoices gathered into one
 * request to pay them, for what was still due on them when it was made. Stored once, never
 * changed but for its payment status.
 */
export interface PaymentRequest {
  id: string;
  organization_id: string;
  customer_id: string;
  external_customer_id: string;
  email: string;
  /** in the order the client gave them, each once */
  invoice_ids: string[];
  amount_cents: number;
  currency: string;
  payment_status: PaymentRequestStatus;
  /**
   * What the request showed when it was made (the customer as the customer service answered it,
   * each invoice as the invoicing service did): answered again for what cannot be read any more
   * (a customer deleted since).
   */
  snapshot: { customer: CustomerMessages.Customer__Output; invoices: InvoicingMessages.Invoice__Output[] };
  created_at: Date;
  updated_at: Date;
}

export type PaymentRequestStatus = "pending" | "succeeded" | "failed";
export const PAYMENT_REQUEST_STATUSES: readonly PaymentRequestStatus[] = ["pending", "succeeded", "failed"];

/** An invoice as a payment request judges it. */
export interface RequestedInvoice {
  id: string;
  customer_id: string;
  status: string;
  payment_status: string;
  payment_overdue: boolean;
  currency: string;
  total_due_amount_cents: number;
}

/**
 * Why these invoices cannot make a payment request of this customer (Lago's validation errors,
 * keyed `svc_invoice_ids` and `base`), or null when they can. `found` holds the invoices of the
 * organization among `ids`; an id not there is unknown.
 */
export function invoiceProblems(
  customerId: string,
  ids: readonly string[],
  found: ReadonlyMap<string, RequestedInvoice>,
): Record<string, string[]> | null {
  const invoices = ids.map((id) => found.get(id));
  // another customer's invoice is as unknown to this request as one that does not exist
  if (invoices.some((i) => !i || i.customer_id !== customerId)) return { svc_invoice_ids: ["invoice_not_found"] };
  const known = invoices as RequestedInvoice[];
  if (
    known.some((i) => i.status !== "finalized" || i.payment_status === "succeeded" || i.total_due_amount_cents <= 0)
  ) {
    return { svc_invoice_ids: ["invoices_not_ready_for_payment_processing"] };
  }
  if (known.some((i) => !i.payment_overdue)) return { svc_invoice_ids: ["invoices_not_overdue"] };
  if (new Set(known.map((i) => i.currency)).size > 1) return { base: ["invoices_have_different_currencies"] };
  return null;
}

/** What is still due on the invoices, in cents. */
export function amountDue(invoices: readonly Pick<RequestedInvoice, "total_due_amount_cents">[]): number {
  return sumCents(
    invoices.map((i) => i.total_due_amount_cents),
    "payment request amount",
  );
}

/**
 * The status the charges of a request's invoices give it: succeeded when every invoice was paid,
 * failed when one was declined and none is still waiting, pending otherwise (an action asked of
 * the customer, or no charge made).
 */
export function statusOfCharges(outcomes: readonly (string | null)[]): PaymentRequestStatus {
  if (outcomes.length > 0 && outcomes.every((o) => o === "succeeded")) return "succeeded";
  if (outcomes.some((o) => o === "failed") && outcomes.every((o) => o === "succeeded" || o === "failed"))
    return "failed";
  return "pending";
}
