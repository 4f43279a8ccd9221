import type { CatalogDeps } from "../deps";
import { deleteRecord } from "../catalog-record-writes";
import { withTaxes, type AddOnWithTaxes } from "../taxes/tax-refs";

/** DELETE /add_ons/{code}: a soft delete; the code is free again. */
export async function deleteAddOn(deps: CatalogDeps, organizationId: string, code: string): Promise<AddOnWithTaxes> {
  const { next } = await deleteRecord(deps.addOns, deps.clock, { organizationId, code, resource: "add_on" });
  return (await withTaxes(deps, organizationId, [next]))[0]!;
}
