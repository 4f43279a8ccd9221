import type { PageRequest } from "@billing/mongo";
import type { CatalogDeps } from "../deps";
import { planViews } from "./plan-refs";

/** GET /plans: newest first, each with its charges, taxes and references resolved. */
export async function listPlans(deps: CatalogDeps, organizationId: string, page: PageRequest) {
  const { items, total } = await deps.plans.listLive(organizationId, page);
  return { items: await planViews(deps, organizationId, items), total };
}
