import { Router } from "express";
import type { PaymentRequestRpc } from "@billing/contracts";
import type { RpcClient } from "@billing/grpc";
import { presentMeta, presentPaymentRequest } from "@billing/views";
import { organizationId } from "../../http/context";
import { topLevelKey } from "../../http/fields";
import { pathParam, replySender, rpcOptions } from "../../http/rpc-route";
import { pageQuery, parseFields, wrapped } from "../../http/validation";
import { paymentRequestCreateSchema, paymentRequestListQuery } from "./validators";

/** /api/v1/payment_requests: validation and shape only; the payment service decides. */
export function paymentRequestsRouter(paymentRequests: RpcClient<PaymentRequestRpc>): Router {
  const router = Router();
  const send = replySender("payment_request", presentPaymentRequest);
  router.post("/payment_requests", async (req, res) => {
    const body = parseFields(paymentRequestCreateSchema, wrapped(req, "payment_request"), topLevelKey);
    send(
      res,
      await paymentRequests.call(
        "CreatePaymentRequest",
        {
          organization_id: organizationId(req),
          external_customer_id: body.external_customer_id,
          email: body.email,
          invoice_ids: body.svc_invoice_ids,
        },
        rpcOptions(req),
      ),
    );
  });
  router.get("/payment_requests", async (req, res) => {
    const q = parseFields(paymentRequestListQuery, req.query, topLevelKey);
    const reply = await paymentRequests.call(
      "ListPaymentRequests",
      {
        organization_id: organizationId(req),
        page: pageQuery(req),
        external_customer_id: q.external_customer_id,
        payment_status: q.payment_status,
      },
      rpcOptions(req),
    );
    res.json({ payment_requests: reply.payment_requests.map(presentPaymentRequest), meta: presentMeta(reply.meta) });
  });
  // wrapped, as Lago's server sends it (its document shows the bare object)
  router.get("/payment_requests/:id", async (req, res) =>
    send(
      res,
      await paymentRequests.call(
        "GetPaymentRequest",
        { organization_id: organizationId(req), payment_request_id: pathParam(req, "id") },
        rpcOptions(req),
      ),
    ),
  );
  return router;
}
