import type { CatalogRpc } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import { pageMeta, pageRequestOf } from "@billing/mongo";
import { taxView } from "../domain/views";
import type { CatalogDeps } from "../use-cases/deps";
import { createTax } from "../use-cases/taxes/create-tax";
import { deleteTax } from "../use-cases/taxes/delete-tax";
import { getTax } from "../use-cases/taxes/get-tax";
import { listTaxes } from "../use-cases/taxes/list-taxes";
import { resolveTaxes } from "../use-cases/taxes/resolve-taxes";
import { updateTax } from "../use-cases/taxes/update-tax";
import { taxPatchOf } from "./tax-messages";

/** billing.catalog.v1.TaxService: proto in, use case, proto out. */
export function taxHandlers(deps: CatalogDeps): Handlers<CatalogRpc["taxes"]> {
  return {
    CreateTax: async (req) => ({ tax: taxView(await createTax(deps, req.organization_id, taxPatchOf(req.tax))) }),
    GetTax: async (req) => ({ tax: taxView(await getTax(deps, req.organization_id, req.code)) }),
    UpdateTax: async (req) => ({
      tax: taxView(await updateTax(deps, req.organization_id, req.code, taxPatchOf(req.tax))),
    }),
    DeleteTax: async (req) => ({ tax: taxView(await deleteTax(deps, req.organization_id, req.code)) }),
    ListTaxes: async (req) => {
      const page = pageRequestOf(req);
      const { items, total } = await listTaxes(deps, req.organization_id, page);
      return { taxes: items.map(taxView), meta: pageMeta(total, page) };
    },
    ResolveTaxes: async (req) => ({
      taxes: (await resolveTaxes(deps, req.organization_id, { codes: req.codes, ids: req.ids })).map(taxView),
    }),
  };
}
