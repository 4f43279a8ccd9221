import type { Patch } from "../../domain/patch";
import type { Tax } from "../../domain/types";
import type { CatalogDeps } from "../deps";
import { changeRecord } from "../catalog-record-writes";
import { changedTax } from "./tax-change";

/** PUT /taxes/{code}: only the fields sent change (the code too). */
export async function updateTax(
  deps: CatalogDeps,
  organizationId: string,
  code: string,
  patch: Patch<Tax>,
): Promise<Tax> {
  const { next } = await changeRecord(deps.taxes, deps.clock, { organizationId, code, resource: "tax" }, (current) =>
    changedTax(current, patch),
  );
  return next;
}
