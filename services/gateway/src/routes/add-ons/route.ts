import { Router, type Request } from "express";
import type { RpcClient } from "@billing/grpc";
import { ctx, organizationId } from "../../http/context";
import { pageQuery, parseFields, wrapped } from "../../http/validation";
import { presentMeta } from "../../http/presenting";
import { topLevelKey } from "../../http/fields";
import { presentAddOn } from "./presenter";
import { toAddOnInputMessage } from "./to-message";
import { addOnCreateSchema, addOnUpdateSchema } from "./validators";

type AddOnReply = { add_on: Record<string, unknown> };

/** /api/v1/add_ons: validation and shape only; the catalog service decides. */
export function addOnsRouter(addOns: RpcClient): Router {
  const router = Router();
  const opts = (req: Request) => ({ requestId: ctx(req).requestId });
  const key = (req: Request) => ({ organization_id: organizationId(req), code: req.params.code });
  const send = (res: { json(body: unknown): void }, reply: AddOnReply) => res.json({ add_on: presentAddOn(reply.add_on) });

  router.post("/add_ons", async (req, res) => {
    const input = parseFields(addOnCreateSchema, wrapped(req, "add_on"), topLevelKey);
    send(res, await addOns.call<AddOnReply>("CreateAddOn", { organization_id: organizationId(req), add_on: toAddOnInputMessage(input) }, opts(req)));
  });

  router.get("/add_ons", async (req, res) => {
    const reply = await addOns.call<{ add_ons: Array<Record<string, unknown>>; meta: Record<string, unknown> }>(
      "ListAddOns",
      { organization_id: organizationId(req), page: pageQuery(req) },
      opts(req),
    );
    res.json({ add_ons: reply.add_ons.map(presentAddOn), meta: presentMeta(reply.meta) });
  });

  router.get("/add_ons/:code", async (req, res) => {
    send(res, await addOns.call<AddOnReply>("GetAddOn", key(req), opts(req)));
  });

  router.put("/add_ons/:code", async (req, res) => {
    const input = parseFields(addOnUpdateSchema, wrapped(req, "add_on"), topLevelKey);
    send(res, await addOns.call<AddOnReply>("UpdateAddOn", { ...key(req), add_on: toAddOnInputMessage(input) }, opts(req)));
  });

  router.delete("/add_ons/:code", async (req, res) => {
    send(res, await addOns.call<AddOnReply>("DeleteAddOn", key(req), opts(req)));
  });

  return router;
}
