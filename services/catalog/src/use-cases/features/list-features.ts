import type { PageRequest } from "@billing/mongo";
import type { CatalogDeps } from "../deps";

/** GET /features: newest first; `searchTerm` keeps those whose name, code or description contains it. */
export function listFeatures(deps: CatalogDeps, organizationId: string, page: PageRequest, searchTerm?: string) {
  return searchTerm
    ? deps.features.search(organizationId, searchTerm, page)
    : deps.features.listLive(organizationId, page);
}
