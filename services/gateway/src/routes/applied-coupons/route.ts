import { Router, type Request, type Response } from "express";
import type { CatalogMessages, CatalogRpc, CustomerRpc } from "@billing/contracts";
import type { RpcClient } from "@billing/grpc";
import { presentAppliedCoupon, presentMeta } from "@billing/views";
import { organizationId } from "../../http/context";
import { externalIdKey, pathParam, replySender, rpcOptions } from "../../http/rpc-route";
import { topLevelKey } from "../../http/fields";
import { parseFields, wrapped } from "../../http/validation";
import { toAppliedCouponMessage, toListMessage } from "./to-message";
import { appliedCouponSchema } from "./validators";

/** /api/v1/applied_coupons and Lago's DELETE under the customer: validation and shape only; the catalog decides (the customer service: whether a customer exists). */
export function appliedCouponsRouter(
  appliedCoupons: RpcClient<CatalogRpc["appliedCoupons"]>,
  customer: RpcClient<CustomerRpc>,
): Router {
  const router = Router();
  const send = replySender("applied_coupon", (a: CatalogMessages.AppliedCoupon__Output) => presentAppliedCoupon(a));

  router.post("/applied_coupons", async (req, res) => {
    const input = parseFields(appliedCouponSchema, wrapped(req, "applied_coupon"), topLevelKey);
    const message = { organization_id: organizationId(req), applied_coupon: toAppliedCouponMessage(input) };
    send(res, await appliedCoupons.call("CreateAppliedCoupon", message, rpcOptions(req)));
  });

  const list = async (req: Request, res: Response, externalCustomerId?: string) => {
    const message = toListMessage(organizationId(req), req);
    if (externalCustomerId !== undefined) message.external_customer_id = externalCustomerId;
    const reply = await appliedCoupons.call("ListAppliedCoupons", message, rpcOptions(req));
    res.json({
      applied_coupons: reply.applied_coupons.map((a) => presentAppliedCoupon(a, { withCredits: true })),
      meta: presentMeta(reply.meta),
    });
  };
  router.get("/applied_coupons", (req, res) => list(req, res));
  // a customer the organization does not have is 404 customer_not_found (not an empty list)
  router.get("/customers/:external_customer_id/applied_coupons", async (req, res) => {
    const key = externalIdKey(req, "external_customer_id");
    await customer.call("GetCustomer", key, rpcOptions(req));
    await list(req, res, key.external_id);
  });

  router.delete("/customers/:external_customer_id/applied_coupons/:applied_coupon_id", async (req, res) => {
    const message = {
      organization_id: organizationId(req),
      external_customer_id: pathParam(req, "external_customer_id"),
      applied_coupon_id: pathParam(req, "applied_coupon_id"),
    };
    send(res, await appliedCoupons.call("TerminateAppliedCoupon", message, rpcOptions(req)));
  });

  return router;
}
