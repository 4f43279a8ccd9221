import { Router } from "express";
import type { CatalogRpc } from "@billing/contracts";
import type { RpcClient } from "@billing/grpc";
import { presentFeature, presentMeta } from "@billing/views";
import { organizationId } from "../../http/context";
import { codeKey, pathParam, replySender, rpcOptions } from "../../http/rpc-route";
import { pageQuery, parseFields, stringParam, wrapped } from "../../http/validation";
import { toFeatureInputMessage } from "./to-message";
import { featureCreateSchema, featureErrorKey, featureUpdateSchema } from "./validators";

/** /api/v1/features: validation and shape only; the catalog service decides. */
export function featuresRouter(features: RpcClient<CatalogRpc["features"]>): Router {
  const router = Router();
  const send = replySender("feature", presentFeature);

  router.post("/features", async (req, res) => {
    const input = parseFields(featureCreateSchema, wrapped(req, "feature"), featureErrorKey);
    send(
      res,
      await features.call(
        "CreateFeature",
        { organization_id: organizationId(req), feature: toFeatureInputMessage(input) },
        rpcOptions(req),
      ),
    );
  });

  router.get("/features", async (req, res) => {
    const message = {
      organization_id: organizationId(req),
      page: pageQuery(req),
      search_term: stringParam(req.query.search_term),
    };
    const reply = await features.call("ListFeatures", message, rpcOptions(req));
    res.json({ features: reply.features.map(presentFeature), meta: presentMeta(reply.meta) });
  });

  router.get("/features/:code", async (req, res) => {
    send(res, await features.call("GetFeature", codeKey(req), rpcOptions(req)));
  });

  router.put("/features/:code", async (req, res) => {
    const input = parseFields(featureUpdateSchema, wrapped(req, "feature"), featureErrorKey);
    send(
      res,
      await features.call("UpdateFeature", { ...codeKey(req), feature: toFeatureInputMessage(input) }, rpcOptions(req)),
    );
  });

  router.delete("/features/:code", async (req, res) => {
    send(res, await features.call("DeleteFeature", codeKey(req), rpcOptions(req)));
  });

  router.delete("/features/:code/privileges/:privilege_code", async (req, res) => {
    const message = { ...codeKey(req), privilege_code: pathParam(req, "privilege_code") };
    send(res, await features.call("DeleteFeaturePrivilege", message, rpcOptions(req)));
  });

  return router;
}
