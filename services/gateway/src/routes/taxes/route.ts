import { Router, type Request } from "express";
import type { CatalogRpc } from "@billing/contracts";
import type { RpcClient } from "@billing/grpc";
import { ctx, organizationId } from "../../http/context";
import { codeKey, replySender, rpcOptions } from "../../http/rpc-route";
import { pageQuery, parseFields, wrapped } from "../../http/validation";
import { presentMeta, presentTax } from "../../http/presenting";
import { toTaxInputMessage } from "./to-message";
import { topLevelKey } from "../../http/fields";
import { taxCreateSchema, taxUpdateSchema } from "./validators";


/** /api/v1/taxes: validation and shape only; the catalog service decides. */
export function taxesRouter(taxes: RpcClient<CatalogRpc["taxes"]>): Router {
  const router = Router();
  const send = replySender("tax", presentTax);

  router.post("/taxes", async (req, res) => {
    const input = parseFields(taxCreateSchema, wrapped(req, "tax"), topLevelKey);
    const reply = await taxes.call("CreateTax", { organization_id: organizationId(req), tax: toTaxInputMessage(input) }, rpcOptions(req));
    send(res, reply);
  });

  router.get("/taxes", async (req, res) => {
    const reply = await taxes.call(
      "ListTaxes",
      { organization_id: organizationId(req), page: pageQuery(req) },
      rpcOptions(req),
    );
    res.json({ taxes: reply.taxes.map(presentTax), meta: presentMeta(reply.meta) });
  });

  router.get("/taxes/:code", async (req, res) => {
    const reply = await taxes.call("GetTax", codeKey(req), rpcOptions(req));
    send(res, reply);
  });

  router.put("/taxes/:code", async (req, res) => {
    const input = parseFields(taxUpdateSchema, wrapped(req, "tax"), topLevelKey);
    const reply = await taxes.call("UpdateTax", { ...codeKey(req), tax: toTaxInputMessage(input) }, rpcOptions(req));
    send(res, reply);
  });

  router.delete("/taxes/:code", async (req, res) => {
    const reply = await taxes.call("DeleteTax", codeKey(req), rpcOptions(req));
    send(res, reply);
  });

  return router;
}
