import type { CatalogMessages, CatalogRpc } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import { pageMeta, pageRequestOf } from "@billing/mongo";
import type { Patch } from "../domain/patch";
import type { AddOn } from "../domain/types";
import { addOnView } from "../domain/views";
import type { AddOnWithTaxes } from "../use-cases/taxes/tax-refs";
import { createAddOn, type AddOnChange } from "../use-cases/add-ons/create-add-on";
import { deleteAddOn } from "../use-cases/add-ons/delete-add-on";
import { getAddOn } from "../use-cases/add-ons/get-add-on";
import { listAddOns } from "../use-cases/add-ons/list-add-ons";
import { updateAddOn } from "../use-cases/add-ons/update-add-on";
import type { CatalogDeps } from "../use-cases/deps";
import { patchOf } from "./patch-messages";

type Key = { organization_id: string; code: string };
type Input = CatalogMessages.AddOnInput__Output;

function addOnChange(input: Input | null): AddOnChange {
  const patch = patchOf(input, ["name", "code", "invoice_display_name", "description", "amount_cents", "amount_currency"]) as Patch<AddOn>;
  return { patch, taxCodes: input?.tax_codes_set ? (input.tax_codes ?? []) : undefined };
}

const view = ({ addOn, taxes }: AddOnWithTaxes) => addOnView(addOn, taxes);

/** billing.catalog.v1.AddOnService: proto in, use case, proto out. */
export function addOnHandlers(deps: CatalogDeps): Handlers<CatalogRpc["addOns"]> {
  return {
    CreateAddOn: async (req) => ({
      add_on: view(await createAddOn(deps, req.organization_id, addOnChange(req.add_on))),
    }),
    GetAddOn: async (req) => ({ add_on: view(await getAddOn(deps, req.organization_id, req.code)) }),
    UpdateAddOn: async (req) => ({
      add_on: view(await updateAddOn(deps, req.organization_id, req.code, addOnChange(req.add_on))),
    }),
    DeleteAddOn: async (req) => ({ add_on: view(await deleteAddOn(deps, req.organization_id, req.code)) }),
    ListAddOns: async (req) => {
      const page = pageRequestOf(req);
      const { items, total } = await listAddOns(deps, req.organization_id, page);
      return { add_ons: items.map(view), meta: pageMeta(total, page) };
    },
  };
}
