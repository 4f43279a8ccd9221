import { z } from "zod";
import { cents, currency, instant, jsonObject } from "./common";
import { customerObject } from "./customers";
import { invoiceObject } from "./invoices";

/** The payment service's objects: payments, payment requests, webhook endpoints and the delivery log. */

const paymentStatus = z.enum(["pending", "succeeded", "failed"]);

export const paymentObject = z
  .object({
    svc_id: z.string(),
    svc_customer_id: z.string(),
    external_customer_id: z.string(),
    invoice_ids: z.array(z.string()),
    invoice_numbers: z.array(z.string()),
    svc_payable_id: z.string(),
    payable_type: z.enum(["Invoice", "PaymentRequest"]),
    amount_cents: cents,
    amount_currency: currency,
    status: z.string().describe("the provider's status"),
    payment_status: z.enum(["pending", "processing", "succeeded", "failed"]),
    type: z.enum(["manual", "provider"]),
    reference: z.string().nullable(),
    payment_provider_code: z.string().nullable(),
    payment_provider_type: z.string().nullable(),
    external_payment_id: z.string().nullable(),
    provider_payment_id: z.string().nullable(),
    provider_customer_id: z.string().nullable(),
    next_action: jsonObject.describe("what the customer must do to complete the payment ({} when nothing)"),
    created_at: instant,
    overpaid_amount_cents: cents.describe(
      "not Lago's: the part of this succeeded payment its invoice could not take (it was paid or credited meanwhile); 0 when none",
    ),
    overpayment_status: z
      .enum(["refund_pending", "refunded", "refund_failed", "to_give_back"])
      .nullable()
      .describe(
        "not Lago's: how giving the overpaid part back stands: refunded through the provider, or to_give_back by the organization (no provider refund, or the organization keeps overpayments for manual handling)",
      ),
  })
  .meta({
    id: "PaymentObject",
    description: "A payment of an invoice or a payment request: manual, or through a payment provider.",
  });

export const paymentRequestObject = z
  .object({
    svc_id: z.string(),
    email: z.string(),
    amount_cents: cents,
    amount_currency: currency,
    payment_status: paymentStatus,
    created_at: instant,
    // z.union, not .nullable(): the generator writes a nullable $ref as an allOf that refuses null
    customer: z.union([customerObject, z.null()]),
    invoices: z.array(invoiceObject),
  })
  .meta({ id: "PaymentRequestObject", description: "A request that a customer pay its overdue invoices at once." });

export const webhookEndpointObject = z
  .object({
    svc_id: z.string(),
    svc_organization_id: z.string(),
    webhook_url: z.string(),
    signature_algo: z.enum(["hmac", "jwt", "standard"]),
    name: z.string().nullable(),
    event_types: z.array(z.string()).nullable().describe("the webhook types sent there; null: every type"),
    created_at: instant,
    signing_secret: z.string().optional().describe("a `standard` endpoint's Standard Webhooks secret"),
  })
  .meta({ id: "WebhookEndpointObject" });

export const webhookObject = z
  .object({
    svc_id: z.string(),
    svc_webhook_endpoint_id: z.string(),
    endpoint: z.string(),
    webhook_type: z.string(),
    object_type: z.string(),
    object_id: z.string().nullable(),
    status: z.enum(["pending", "succeeded", "failed"]),
    retries: z.number().int(),
    http_status: z.number().int().nullable(),
    response: z.string().nullable(),
    payload: jsonObject.describe("the payload exactly as sent"),
    last_retried_at: instant.nullable(),
    next_attempt_at: instant.nullable(),
    created_at: instant,
    updated_at: instant,
  })
  .meta({ id: "WebhookObject", description: "One delivery of the webhook log (not in Lago)." });
