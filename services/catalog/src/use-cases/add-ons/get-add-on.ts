import { AppError } from "@billing/errors";
import type { CatalogDeps } from "../deps";
import { withTaxes, type AddOnWithTaxes } from "../taxes/tax-refs";

/** GET /add_ons/{code}. */
export async function getAddOn(deps: CatalogDeps, organizationId: string, code: string): Promise<AddOnWithTaxes> {
  const addOn = await deps.addOns.findLive(organizationId, code);
  if (!addOn) throw AppError.notFound("add_on");
  return (await withTaxes(deps, organizationId, [addOn]))[0]!;
}
