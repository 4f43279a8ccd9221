import type { CatalogDeps } from "../deps";
import { changeRecord } from "../catalog-record-writes";
import { withTaxes, type AddOnWithTaxes } from "../taxes/tax-refs";
import { changedAddOn, type AddOnChange } from "./add-on-change";

/** PUT /add_ons/{code}: only the fields sent change; tax_codes, when sent, replace the taxes. */
export async function updateAddOn(
  deps: CatalogDeps,
  organizationId: string,
  code: string,
  change: AddOnChange,
): Promise<AddOnWithTaxes> {
  const { next } = await changeRecord(
    deps.addOns,
    deps.clock,
    { organizationId, code, resource: "add_on" },
    (current) => changedAddOn(deps, current, change),
  );
  return (await withTaxes(deps, organizationId, [next]))[0]!;
}
