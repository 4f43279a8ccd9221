import { Router } from "express";
import type { CatalogRpc } from "@billing/contracts";
import type { RpcClient } from "@billing/grpc";
import { presentCoupon } from "@billing/views";
import { codeResourceRoutes } from "../../http/code-resource-routes";
import { topLevelKey } from "../../http/fields";
import { toCouponInputMessage } from "./to-message";
import { couponCreateSchema, couponUpdateSchema } from "./validators";

/** /api/v1/coupons: validation and shape only; the catalog service decides. */
export function couponsRouter(coupons: RpcClient<CatalogRpc["coupons"]>): Router {
  return codeResourceRoutes(Router(), coupons, {
    root: "coupon",
    plural: "coupons",
    rpc: {
      create: "CreateCoupon",
      list: "ListCoupons",
      get: "GetCoupon",
      update: "UpdateCoupon",
      delete: "DeleteCoupon",
    },
    schemas: { create: couponCreateSchema, update: couponUpdateSchema, errorKey: topLevelKey },
    toMessage: toCouponInputMessage,
    present: presentCoupon,
  });
}
