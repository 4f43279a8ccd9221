import type { CustomerMessages, InvoicingMessages } from "@billing/contracts";
import type { PaymentRequest } from "../../domain/payment-request";
import type { PaymentRequestDeps } from "../deps";
import { boundedMap } from "./bounded-map";

/** A payment request as the API shows it: with its customer and its invoices. */
export interface PaymentRequestView {
  request: PaymentRequest;
  customer: CustomerMessages.Customer__Output;
  /** each invoice as the invoicing service answers it, in the request's order */
  invoices: InvoicingMessages.Invoice__Output[];
}

/**
 * The requests with their customer and invoices as they are now (one read per distinct customer
 * and invoice); what cannot be read any more (a customer deleted, or another customer now under
 * the same external id) is shown as it was when the request was made.
 */
export async function readPaymentRequestViews(
  deps: PaymentRequestDeps,
  organizationId: string,
  requests: readonly PaymentRequest[],
): Promise<PaymentRequestView[]> {
  const externalIds = [...new Set(requests.map((r) => r.external_customer_id))];
  const invoiceIds = [...new Set(requests.flatMap((r) => r.invoice_ids))];
  const [customers, invoices] = await Promise.all([
    boundedMap(externalIds, (id) => deps.customers.find(organizationId, id)),
    boundedMap(invoiceIds, (id) => deps.invoicing.document(organizationId, id)),
  ]);
  const customerOf = new Map(externalIds.map((id, i) => [id, customers[i]]));
  const invoiceOf = new Map(invoiceIds.map((id, i) => [id, invoices[i]?.message]));
  return requests.map((request) => {
    const live = customerOf.get(request.external_customer_id);
    return {
      request,
      customer: live && live.svc_id === request.customer_id ? live : request.snapshot.customer,
      invoices: request.invoice_ids.map((id, i) => invoiceOf.get(id) ?? request.snapshot.invoices[i]!),
    };
  });
}
