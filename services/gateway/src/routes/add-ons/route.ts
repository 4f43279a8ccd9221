import { Router } from "express";
import type { CatalogRpc } from "@billing/contracts";
import type { RpcClient } from "@billing/grpc";
import { presentAddOn } from "@billing/views";
import { codeResourceRoutes } from "../../http/code-resource-routes";
import { topLevelKey } from "../../http/fields";
import { toAddOnInputMessage } from "./to-message";
import { addOnCreateSchema, addOnUpdateSchema } from "./validators";

/** /api/v1/add_ons: validation and shape only; the catalog service decides. */
export function addOnsRouter(addOns: RpcClient<CatalogRpc["addOns"]>): Router {
  return codeResourceRoutes(Router(), addOns, {
    root: "add_on",
    plural: "add_ons",
    rpc: { create: "CreateAddOn", list: "ListAddOns", get: "GetAddOn", update: "UpdateAddOn", delete: "DeleteAddOn" },
    schemas: { create: addOnCreateSchema, update: addOnUpdateSchema, errorKey: topLevelKey },
    toMessage: toAddOnInputMessage,
    present: presentAddOn,
  });
}
