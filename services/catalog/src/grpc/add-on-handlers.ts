import type { CatalogRpc } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import { pageMeta, pageRequestOf } from "@billing/mongo";
import { createAddOn } from "../use-cases/add-ons/create-add-on";
import { deleteAddOn } from "../use-cases/add-ons/delete-add-on";
import { getAddOn } from "../use-cases/add-ons/get-add-on";
import { listAddOns } from "../use-cases/add-ons/list-add-ons";
import { updateAddOn } from "../use-cases/add-ons/update-add-on";
import type { CatalogDeps } from "../use-cases/deps";
import { addOnChangeOf, addOnMessage } from "./add-on-messages";

/** billing.catalog.v1.AddOnService: proto in, use case, proto out. */
export function addOnHandlers(deps: CatalogDeps): Handlers<CatalogRpc["addOns"]> {
  return {
    CreateAddOn: async (req) => ({
      add_on: addOnMessage(await createAddOn(deps, req.organization_id, addOnChangeOf(req.add_on))),
    }),
    GetAddOn: async (req) => ({ add_on: addOnMessage(await getAddOn(deps, req.organization_id, req.code)) }),
    UpdateAddOn: async (req) => ({
      add_on: addOnMessage(await updateAddOn(deps, req.organization_id, req.code, addOnChangeOf(req.add_on))),
    }),
    DeleteAddOn: async (req) => ({ add_on: addOnMessage(await deleteAddOn(deps, req.organization_id, req.code)) }),
    ListAddOns: async (req) => {
      const page = pageRequestOf(req);
      const { items, total } = await listAddOns(deps, req.organization_id, page);
      return { add_ons: items.map(addOnMessage), meta: pageMeta(total, page) };
    },
  };
}
