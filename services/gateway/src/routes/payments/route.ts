import { Router } from "express";
import type { PaymentRpc } from "@billing/contracts";
import type { RpcClient } from "@billing/grpc";
import { presentMeta, presentPayment } from "@billing/views";
import { organizationId } from "../../http/context";
import { topLevelKey } from "../../http/fields";
import { pathParam, replySender, rpcOptions } from "../../http/rpc-route";
import { pageQuery, parseFields, stringParam, wrapped } from "../../http/validation";
import { paymentCreateSchema } from "./validators";

/**
 * /api/v1/payments, POST /invoices/{id}/retry_payment and the sandbox provider's confirmation:
 * validation and shape only; the payment service decides.
 */
export function paymentsRouter(payments: RpcClient<PaymentRpc>): Router {
  const router = Router();
  const send = replySender("payment", presentPayment);
  router.post("/payments", async (req, res) => {
    const body = parseFields(paymentCreateSchema, wrapped(req, "payment"), topLevelKey);
    send(
      res,
      await payments.call(
        "CreatePayment",
        { organization_id: organizationId(req), ...body, paid_at: body.paid_at ?? undefined },
        rpcOptions(req),
      ),
    );
  });
  router.get("/payments", async (req, res) => {
    const reply = await payments.call(
      "ListPayments",
      {
        organization_id: organizationId(req),
        page: pageQuery(req),
        external_customer_id: stringParam(req.query.external_customer_id),
        invoice_id: stringParam(req.query.invoice_id),
      },
      rpcOptions(req),
    );
    res.json({ payments: reply.payments.map(presentPayment), meta: presentMeta(reply.meta) });
  });
  // wrapped, as Lago's server sends it (its document shows the bare object)
  router.get("/payments/:id", async (req, res) =>
    send(
      res,
      await payments.call(
        "GetPayment",
        { organization_id: organizationId(req), payment_id: pathParam(req, "id") },
        rpcOptions(req),
      ),
    ),
  );
  router.post("/invoices/:id/retry_payment", async (req, res) => {
    await payments.call(
      "RetryInvoicePayment",
      { organization_id: organizationId(req), invoice_id: pathParam(req, "id") },
      rpcOptions(req),
    );
    res.json({});
  });
  // the sandbox provider's "redirect": the customer completed the action (not Lago's: real providers call back their own way)
  router.post("/sandbox/payments/:id/confirm", async (req, res) =>
    send(
      res,
      await payments.call(
        "ConfirmSandboxPayment",
        { organization_id: organizationId(req), payment_id: pathParam(req, "id") },
        rpcOptions(req),
      ),
    ),
  );
  return router;
}
