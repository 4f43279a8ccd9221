import { Router, type Request } from "express";
import type { RpcClient } from "@billing/grpc";
import { ctx, organizationId } from "../../http/context";
import { pageQuery, parseFields, wrapped } from "../../http/validation";
import { presentMeta, presentTax } from "../../http/presenting";
import { toTaxInputMessage } from "./to-message";
import { topLevelKey } from "../../http/fields";
import { taxCreateSchema, taxUpdateSchema } from "./validators";

type TaxReply = { tax: Record<string, unknown> };

/** /api/v1/taxes: validation and shape only; the catalog service decides. */
export function taxesRouter(taxes: RpcClient): Router {
  const router = Router();
  const opts = (req: Request) => ({ requestId: ctx(req).requestId });
  const key = (req: Request) => ({ organization_id: organizationId(req), code: req.params.code });

  router.post("/taxes", async (req, res) => {
    const input = parseFields(taxCreateSchema, wrapped(req, "tax"), topLevelKey);
    const reply = await taxes.call<TaxReply>("CreateTax", { organization_id: organizationId(req), tax: toTaxInputMessage(input) }, opts(req));
    res.json({ tax: presentTax(reply.tax) });
  });

  router.get("/taxes", async (req, res) => {
    const reply = await taxes.call<{ taxes: Array<Record<string, unknown>>; meta: Record<string, unknown> }>(
      "ListTaxes",
      { organization_id: organizationId(req), page: pageQuery(req) },
      opts(req),
    );
    res.json({ taxes: reply.taxes.map(presentTax), meta: presentMeta(reply.meta) });
  });

  router.get("/taxes/:code", async (req, res) => {
    const reply = await taxes.call<TaxReply>("GetTax", key(req), opts(req));
    res.json({ tax: presentTax(reply.tax) });
  });

  router.put("/taxes/:code", async (req, res) => {
    const input = parseFields(taxUpdateSchema, wrapped(req, "tax"), topLevelKey);
    const reply = await taxes.call<TaxReply>("UpdateTax", { ...key(req), tax: toTaxInputMessage(input) }, opts(req));
    res.json({ tax: presentTax(reply.tax) });
  });

  router.delete("/taxes/:code", async (req, res) => {
    const reply = await taxes.call<TaxReply>("DeleteTax", key(req), opts(req));
    res.json({ tax: presentTax(reply.tax) });
  });

  return router;
}
