import { Router, type Request } from "express";
import type { CatalogRpc } from "@billing/contracts";
import type { RpcClient } from "@billing/grpc";
import { ctx, organizationId } from "../../http/context";
import { codeKey, replySender, rpcOptions } from "../../http/rpc-route";
import { pageQuery, parseFields, wrapped } from "../../http/validation";
import { presentMeta } from "../../http/presenting";
import { topLevelKey } from "../../http/fields";
import { presentCoupon } from "./presenter";
import { toCouponInputMessage } from "./to-message";
import { couponCreateSchema, couponUpdateSchema } from "./validators";


/** /api/v1/coupons: validation and shape only; the catalog service decides. DELETE terminates. */
export function couponsRouter(coupons: RpcClient<CatalogRpc["coupons"]>): Router {
  const router = Router();
  const send = replySender("coupon", presentCoupon);

  router.post("/coupons", async (req, res) => {
    const input = parseFields(couponCreateSchema, wrapped(req, "coupon"), topLevelKey);
    send(res, await coupons.call("CreateCoupon", { organization_id: organizationId(req), coupon: toCouponInputMessage(input) }, rpcOptions(req)));
  });

  router.get("/coupons", async (req, res) => {
    const reply = await coupons.call(
      "ListCoupons",
      { organization_id: organizationId(req), page: pageQuery(req) },
      rpcOptions(req),
    );
    res.json({ coupons: reply.coupons.map(presentCoupon), meta: presentMeta(reply.meta) });
  });

  router.get("/coupons/:code", async (req, res) => {
    send(res, await coupons.call("GetCoupon", codeKey(req), rpcOptions(req)));
  });

  router.put("/coupons/:code", async (req, res) => {
    const input = parseFields(couponUpdateSchema, wrapped(req, "coupon"), topLevelKey);
    send(res, await coupons.call("UpdateCoupon", { ...codeKey(req), coupon: toCouponInputMessage(input) }, rpcOptions(req)));
  });

  router.delete("/coupons/:code", async (req, res) => {
    send(res, await coupons.call("DeleteCoupon", codeKey(req), rpcOptions(req)));
  });

  return router;
}
