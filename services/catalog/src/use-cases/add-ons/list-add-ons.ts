import type { PageRequest } from "@billing/mongo";
import type { CatalogDeps } from "../deps";
import { withTaxes } from "../taxes/tax-refs";

/** GET /add_ons: newest first, each with its taxes. */
export async function listAddOns(deps: CatalogDeps, organizationId: string, page: PageRequest) {
  const { items, total } = await deps.addOns.listLive(organizationId, page);
  return { items: await withTaxes(deps, organizationId, items), total };
}
