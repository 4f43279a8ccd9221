import { Router, type Request } from "express";
import type { RpcClient } from "@billing/grpc";
import { ctx, organizationId } from "../../http/context";
import { topLevelKey } from "../../http/fields";
import { presentMeta } from "../../http/presenting";
import { parseFields, wrapped } from "../../http/validation";
import { presentAppliedCoupon } from "./presenter";
import { toAppliedCouponMessage, toListMessage } from "./to-message";
import { appliedCouponSchema } from "./validators";

type AppliedCouponReply = { applied_coupon: Record<string, unknown> };
type ListReply = { applied_coupons: Array<Record<string, unknown>>; meta: Record<string, unknown> };

/** /api/v1/applied_coupons and Lago's DELETE under the customer: validation and shape only; the catalog decides. */
export function appliedCouponsRouter(appliedCoupons: RpcClient): Router {
  const router = Router();
  const opts = (req: Request) => ({ requestId: ctx(req).requestId });
  const send = (res: { json(body: unknown): void }, reply: AppliedCouponReply) =>
    res.json({ applied_coupon: presentAppliedCoupon(reply.applied_coupon) });

  router.post("/applied_coupons", async (req, res) => {
    const input = parseFields(appliedCouponSchema, wrapped(req, "applied_coupon"), topLevelKey);
    const message = { organization_id: organizationId(req), applied_coupon: toAppliedCouponMessage(input) };
    send(res, await appliedCoupons.call<AppliedCouponReply>("CreateAppliedCoupon", message, opts(req)));
  });

  const list = async (req: Request, res: { json(body: unknown): void }, externalCustomerId?: string) => {
    const message = toListMessage(organizationId(req), req);
    if (externalCustomerId !== undefined) message.external_customer_id = externalCustomerId;
    const reply = await appliedCoupons.call<ListReply>("ListAppliedCoupons", message, opts(req));
    res.json({
      applied_coupons: reply.applied_coupons.map((a) => presentAppliedCoupon(a, { withCredits: true })),
      meta: presentMeta(reply.meta),
    });
  };
  router.get("/applied_coupons", (req, res) => list(req, res));
  router.get("/customers/:external_customer_id/applied_coupons", (req, res) => list(req, res, req.params.external_customer_id));

  router.delete("/customers/:external_customer_id/applied_coupons/:applied_coupon_id", async (req, res) => {
    const message = {
      organization_id: organizationId(req),
      external_customer_id: req.params.external_customer_id,
      applied_coupon_id: req.params.applied_coupon_id,
    };
    send(res, await appliedCoupons.call<AppliedCouponReply>("TerminateAppliedCoupon", message, opts(req)));
  });

  return router;
}
