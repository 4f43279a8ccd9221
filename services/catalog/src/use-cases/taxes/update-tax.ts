import { applyPatch, type Patch } from "../../domain/patch";
import { TAX_PATCHABLE } from "../../domain/tax-rules";
import type { Tax } from "../../domain/types";
import type { CatalogDeps } from "../deps";
import { changeRecord } from "../catalog-record-writes";
import { checkedTax } from "./create-tax";

/** PUT /taxes/{code}: only the fields sent change (the code too). */
export async function updateTax(deps: CatalogDeps, organizationId: string, code: string, patch: Patch<Tax>): Promise<Tax> {
  const { next } = await changeRecord(deps.taxes, deps.clock, { organizationId, code, resource: "tax" }, (current) =>
    checkedTax(applyPatch(current, patch, TAX_PATCHABLE)),
  );
  return next;
}
