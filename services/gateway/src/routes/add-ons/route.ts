import { Router, type Request } from "express";
import type { CatalogRpc } from "@billing/contracts";
import type { RpcClient } from "@billing/grpc";
import { ctx, organizationId } from "../../http/context";
import { codeKey, replySender, rpcOptions } from "../../http/rpc-route";
import { pageQuery, parseFields, wrapped } from "../../http/validation";
import { presentMeta } from "../../http/presenting";
import { topLevelKey } from "../../http/fields";
import { presentAddOn } from "./presenter";
import { toAddOnInputMessage } from "./to-message";
import { addOnCreateSchema, addOnUpdateSchema } from "./validators";


/** /api/v1/add_ons: validation and shape only; the catalog service decides. */
export function addOnsRouter(addOns: RpcClient<CatalogRpc["addOns"]>): Router {
  const router = Router();
  const send = replySender("add_on", presentAddOn);

  router.post("/add_ons", async (req, res) => {
    const input = parseFields(addOnCreateSchema, wrapped(req, "add_on"), topLevelKey);
    send(res, await addOns.call("CreateAddOn", { organization_id: organizationId(req), add_on: toAddOnInputMessage(input) }, rpcOptions(req)));
  });

  router.get("/add_ons", async (req, res) => {
    const reply = await addOns.call(
      "ListAddOns",
      { organization_id: organizationId(req), page: pageQuery(req) },
      rpcOptions(req),
    );
    res.json({ add_ons: reply.add_ons.map(presentAddOn), meta: presentMeta(reply.meta) });
  });

  router.get("/add_ons/:code", async (req, res) => {
    send(res, await addOns.call("GetAddOn", codeKey(req), rpcOptions(req)));
  });

  router.put("/add_ons/:code", async (req, res) => {
    const input = parseFields(addOnUpdateSchema, wrapped(req, "add_on"), topLevelKey);
    send(res, await addOns.call("UpdateAddOn", { ...codeKey(req), add_on: toAddOnInputMessage(input) }, rpcOptions(req)));
  });

  router.delete("/add_ons/:code", async (req, res) => {
    send(res, await addOns.call("DeleteAddOn", codeKey(req), rpcOptions(req)));
  });

  return router;
}
