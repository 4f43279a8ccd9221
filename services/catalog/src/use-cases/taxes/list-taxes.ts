import type { PageRequest } from "@billing/mongo";
import type { CatalogDeps } from "../deps";

/** GET /taxes: newest first. */
export function listTaxes(deps: CatalogDeps, organizationId: string, page: PageRequest) {
  return deps.taxes.listLive(organizationId, page);
}
