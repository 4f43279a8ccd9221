import { Router, type Request } from "express";
import type { RpcClient } from "@billing/grpc";
import { ctx, organizationId } from "../../http/context";
import { pageQuery, parseFields, wrapped } from "../../http/validation";
import { presentMeta } from "../../http/presenting";
import { topLevelKey } from "../../http/fields";
import { presentCoupon } from "./presenter";
import { toCouponInputMessage } from "./to-message";
import { couponCreateSchema, couponUpdateSchema } from "./validators";

type CouponReply = { coupon: Record<string, unknown> };

/** /api/v1/coupons: validation and shape only; the catalog service decides. DELETE terminates. */
export function couponsRouter(coupons: RpcClient): Router {
  const router = Router();
  const opts = (req: Request) => ({ requestId: ctx(req).requestId });
  const key = (req: Request) => ({ organization_id: organizationId(req), code: req.params.code });
  const send = (res: { json(body: unknown): void }, reply: CouponReply) => res.json({ coupon: presentCoupon(reply.coupon) });

  router.post("/coupons", async (req, res) => {
    const input = parseFields(couponCreateSchema, wrapped(req, "coupon"), topLevelKey);
    send(res, await coupons.call<CouponReply>("CreateCoupon", { organization_id: organizationId(req), coupon: toCouponInputMessage(input) }, opts(req)));
  });

  router.get("/coupons", async (req, res) => {
    const reply = await coupons.call<{ coupons: Array<Record<string, unknown>>; meta: Record<string, unknown> }>(
      "ListCoupons",
      { organization_id: organizationId(req), page: pageQuery(req) },
      opts(req),
    );
    res.json({ coupons: reply.coupons.map(presentCoupon), meta: presentMeta(reply.meta) });
  });

  router.get("/coupons/:code", async (req, res) => {
    send(res, await coupons.call<CouponReply>("GetCoupon", key(req), opts(req)));
  });

  router.put("/coupons/:code", async (req, res) => {
    const input = parseFields(couponUpdateSchema, wrapped(req, "coupon"), topLevelKey);
    send(res, await coupons.call<CouponReply>("UpdateCoupon", { ...key(req), coupon: toCouponInputMessage(input) }, opts(req)));
  });

  router.delete("/coupons/:code", async (req, res) => {
    send(res, await coupons.call<CouponReply>("DeleteCoupon", key(req), opts(req)));
  });

  return router;
}
