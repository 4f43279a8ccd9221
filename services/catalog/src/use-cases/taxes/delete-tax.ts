import type { Tax } from "../../domain/types";
import type { CatalogDeps } from "../deps";
import { deleteRecord } from "../catalog-record-writes";

/** DELETE /taxes/{code}: the tax disappears (and from the add-ons it was applied to); its code is free again. */
export async function deleteTax(deps: CatalogDeps, organizationId: string, code: string): Promise<Tax> {
  return (await deleteRecord(deps.taxes, deps.clock, { organizationId, code, resource: "tax" })).next;
}
