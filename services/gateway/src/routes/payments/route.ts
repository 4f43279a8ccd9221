import { Router } from "express";
import { z } from "zod";
import type { PaymentMessages, PaymentRpc } from "@billing/contracts";
import type { RpcClient } from "@billing/grpc";
import { organizationId } from "../../http/context";
import { topLevelKey } from "../../http/fields";
import { presentMeta } from "../../http/presenting";
import { pathParam, replySender, rpcOptions } from "../../http/rpc-route";
import { pageQuery, parseFields, stringParam, wrapped } from "../../http/validation";

const paymentCreateSchema = z.object({
  invoice_id: z.string().min(1).max(255),
  amount_cents: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  reference: z.string().min(1).max(40),
  paid_at: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "invalid_date").nullish(),
});

/** Lago's PaymentObject (a manual payment has no provider: its provider keys are null, as Lago sends them). */
export function presentPayment(p: PaymentMessages.Payment__Output) {
  return {
    svc_id: p.svc_id, svc_customer_id: p.svc_customer_id, external_customer_id: p.external_customer_id,
    invoice_ids: p.invoice_ids, invoice_numbers: p.invoice_numbers, svc_payable_id: p.svc_payable_id, payable_type: p.payable_type,
    amount_cents: Number(p.amount_cents), amount_currency: p.amount_currency, status: p.status, payment_status: p.payment_status, type: p.type,
    reference: p.reference ?? null, payment_provider_code: p.payment_provider_code ?? null, payment_provider_type: p.payment_provider_type ?? null,
    external_payment_id: p.provider_payment_id ?? null, provider_payment_id: p.provider_payment_id ?? null,
    provider_customer_id: p.provider_customer_id ?? null, next_action: JSON.parse(p.next_action_json || "{}") as unknown, created_at: p.created_at,
  };
}

/**
 * /api/v1/payments, POST /invoices/{id}/retry_payment and the sandbox provider's confirmation:
 * validation and shape only; the payment service decides.
 */
export function paymentsRouter(payments: RpcClient<PaymentRpc>): Router {
  const router = Router();
  const send = replySender("payment", presentPayment);
  router.post("/payments", async (req, res) => {
    const body = parseFields(paymentCreateSchema, wrapped(req, "payment"), topLevelKey);
    send(res, await payments.call("CreatePayment", { organization_id: organizationId(req), ...body, paid_at: body.paid_at ?? undefined }, rpcOptions(req)));
  });
  router.get("/payments", async (req, res) => {
    const reply = await payments.call("ListPayments", {
      organization_id: organizationId(req), page: pageQuery(req),
      external_customer_id: stringParam(req.query.external_customer_id), invoice_id: stringParam(req.query.invoice_id),
    }, rpcOptions(req));
    res.json({ payments: reply.payments.map(presentPayment), meta: presentMeta(reply.meta) });
  });
  // wrapped, as Lago's server sends it (its document shows the bare object)
  router.get("/payments/:id", async (req, res) => send(res, await payments.call("GetPayment", { organization_id: organizationId(req), payment_id: pathParam(req, "id") }, rpcOptions(req))));
  router.post("/invoices/:id/retry_payment", async (req, res) => {
    await payments.call("RetryInvoicePayment", { organization_id: organizationId(req), invoice_id: pathParam(req, "id") }, rpcOptions(req));
    res.json({});
  });
  // the sandbox provider's "redirect": the customer completed the action (not Lago's: real providers call back their own way)
  router.post("/sandbox/payments/:id/confirm", async (req, res) =>
    send(res, await payments.call("ConfirmSandboxPayment", { organization_id: organizationId(req), payment_id: pathParam(req, "id") }, rpcOptions(req))));
  return router;
}
