import { randomUUID } from "node:crypto";
import { Subjects } from "@billing/bus";
import { AppError } from "@billing/errors";
import { amountDue, invoiceProblems, type PaymentRequest, type RequestedInvoice } from "../../domain/payment-request";
import { paymentRequestEvent } from "../../events/payment-request-events";
import type { InvoiceDocument } from "../../peers/invoicing";
import type { PaymentRequestDeps } from "../deps";
import { boundedMap } from "./bounded-map";
import { chargePaymentRequest } from "./charge-payment-request";
import { readPaymentRequestViews, type PaymentRequestView } from "./read-payment-request-views";

// what a mailbox looks like (the gateway checks the same)
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MAX_INVOICES = 1_000;

const requested = (d: InvoiceDocument): RequestedInvoice => ({
  id: d.invoice.id,
  customer_id: d.invoice.customer_id,
  status: d.invoice.status,
  payment_status: d.invoice.payment_status,
  payment_overdue: d.payment_overdue,
  currency: d.invoice.currency,
  total_due_amount_cents: d.invoice.total_due_amount_cents,
});

/**
 * Lago's POST /payment_requests: the customer's overdue invoices (finalized, unpaid, past their
 * due date on the organization's clock, in one currency) gathered into one request for what is
 * still due on them. Refused (422, nothing stored) when any invoice does not qualify; 404 for an
 * unknown customer. Stored with its payment_request.created event in one insert; a customer
 * whose payment provider the service knows (`sandbox`) is charged at once, invoice by invoice.
 */
export async function createPaymentRequest(
  deps: PaymentRequestDeps,
  organizationId: string,
  input: { external_customer_id: string; email: string; invoice_ids: readonly string[] },
): Promise<PaymentRequestView> {
  const problems: Record<string, string[]> = {};
  if (!input.external_customer_id) problems.external_customer_id = ["value_is_mandatory"];
  if (!input.email) problems.email = ["value_is_mandatory"];
  else if (input.email.length > 255 || !EMAIL.test(input.email)) problems.email = ["invalid_email_format"];
  if (input.invoice_ids.length === 0) problems.svc_invoice_ids = ["value_is_mandatory"];
  else if (input.invoice_ids.length > MAX_INVOICES || input.invoice_ids.some((id) => !id))
    problems.svc_invoice_ids = ["value_is_invalid"];
  if (Object.keys(problems).length) throw AppError.validation(problems);

  const customer = await deps.customers.find(organizationId, input.external_customer_id);
  if (!customer) throw AppError.notFound("customer");
  const ids = [...new Set(input.invoice_ids)];
  const documents = await boundedMap(ids, (id) => deps.invoicing.document(organizationId, id));
  const found = new Map(documents.flatMap((d) => (d ? [[d.invoice.id, requested(d)] as const] : [])));
  const refused = invoiceProblems(customer.svc_id, ids, found);
  if (refused) throw AppError.validation(refused);

  const invoices = documents as InvoiceDocument[];
  const now = deps.clock.now();
  const request: PaymentRequest = {
    id: randomUUID(),
    organization_id: organizationId,
    customer_id: customer.svc_id,
    external_customer_id: customer.external_id,
    email: input.email,
    invoice_ids: ids,
    amount_cents: amountDue(invoices.map((d) => d.invoice)),
    currency: invoices[0]!.invoice.currency,
    payment_status: "pending",
    snapshot: { customer, invoices: invoices.map((d) => d.message) },
    created_at: now,
    updated_at: now,
  };
  const event = paymentRequestEvent(Subjects.payment.paymentRequestCreated, request, now);
  await deps.paymentRequests.insert(request, event);
  await deps.publishRequest(request.id, event);

  const provider = customer.billing_configuration?.payment_provider;
  if (!provider || !deps.providers.has(provider)) return { request, customer, invoices: request.snapshot.invoices };
  // charged: the invoices (and the request) are answered as they are after the charges
  const settled = await chargePaymentRequest(
    deps,
    request,
    invoices.map((d) => d.invoice),
  );
  return (await readPaymentRequestViews(deps, organizationId, [settled]))[0]!;
}
