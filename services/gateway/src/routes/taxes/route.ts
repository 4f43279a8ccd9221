import { Router } from "express";
import type { CatalogRpc } from "@billing/contracts";
import type { RpcClient } from "@billing/grpc";
import { presentTax } from "@billing/views";
import { codeResourceRoutes } from "../../http/code-resource-routes";
import { topLevelKey } from "../../http/fields";
import { toTaxInputMessage } from "./to-message";
import { taxCreateSchema, taxUpdateSchema } from "./validators";

/** /api/v1/taxes: validation and shape only; the catalog service decides. */
export function taxesRouter(taxes: RpcClient<CatalogRpc["taxes"]>): Router {
  return codeResourceRoutes(Router(), taxes, {
    root: "tax",
    plural: "taxes",
    rpc: { create: "CreateTax", list: "ListTaxes", get: "GetTax", update: "UpdateTax", delete: "DeleteTax" },
    schemas: { create: taxCreateSchema, update: taxUpdateSchema, errorKey: topLevelKey },
    toMessage: toTaxInputMessage,
    present: presentTax,
  });
}
