import { Router, type Request } from "express";
import type { RpcClient } from "@billing/grpc";
import { ctx, organizationId } from "../../http/context";
import { presentMeta, type Message } from "../../http/presenting";
import { pageQuery, parseFields, wrapped } from "../../http/validation";
import { presentFeature } from "./presenter";
import { toFeatureInputMessage } from "./to-message";
import { featureCreateSchema, featureErrorKey, featureUpdateSchema } from "./validators";

type Reply = { feature: Message };

/** /api/v1/features: validation and shape only; the catalog service decides. */
export function featuresRouter(features: RpcClient): Router {
  const router = Router();
  const opts = (req: Request) => ({ requestId: ctx(req).requestId });
  const key = (req: Request) => ({ organization_id: organizationId(req), code: req.params.code });
  const send = (res: { json(body: unknown): void }, reply: Reply) => res.json({ feature: presentFeature(reply.feature) });

  router.post("/features", async (req, res) => {
    const input = parseFields(featureCreateSchema, wrapped(req, "feature"), featureErrorKey);
    send(res, await features.call<Reply>("CreateFeature", { organization_id: organizationId(req), feature: toFeatureInputMessage(input) }, opts(req)));
  });

  router.get("/features", async (req, res) => {
    const term = typeof req.query.search_term === "string" && req.query.search_term ? req.query.search_term : undefined;
    const message = { organization_id: organizationId(req), page: pageQuery(req), search_term: term };
    const reply = await features.call<{ features: Message[]; meta: Message }>("ListFeatures", message, opts(req));
    res.json({ features: reply.features.map(presentFeature), meta: presentMeta(reply.meta) });
  });

  router.get("/features/:code", async (req, res) => {
    send(res, await features.call<Reply>("GetFeature", key(req), opts(req)));
  });

  router.put("/features/:code", async (req, res) => {
    const input = parseFields(featureUpdateSchema, wrapped(req, "feature"), featureErrorKey);
    send(res, await features.call<Reply>("UpdateFeature", { ...key(req), feature: toFeatureInputMessage(input) }, opts(req)));
  });

  router.delete("/features/:code", async (req, res) => {
    send(res, await features.call<Reply>("DeleteFeature", key(req), opts(req)));
  });

  router.delete("/features/:code/privileges/:privilege_code", async (req, res) => {
    const message = { ...key(req), privilege_code: req.params.privilege_code };
    send(res, await features.call<Reply>("DeleteFeaturePrivilege", message, opts(req)));
  });

  return router;
}
