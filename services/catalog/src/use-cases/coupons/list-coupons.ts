import type { PageRequest } from "@billing/mongo";
import type { CatalogDeps } from "../deps";
import { withMetricCodes } from "./coupon-metric-refs";

/** GET /coupons: newest first. */
export async function listCoupons(deps: CatalogDeps, organizationId: string, page: PageRequest) {
  const { items, total } = await deps.coupons.listLive(organizationId, page);
  return { items: await withMetricCodes(deps, organizationId, items), total };
}
