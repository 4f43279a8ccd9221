import type { PageRequest } from "@billing/mongo";
import { APPLIED_COUPON_STATUSES, type AppliedCouponStatus } from "../../domain/applied-coupon";
import type { AppliedCouponFilter } from "../../persistence/applied-coupon-repository";
import type { CatalogDeps } from "../deps";
import { withCoupons } from "./applied-coupon-refs";

export interface AppliedCouponQuery {
  /** active | terminated; anything else is ignored, as Lago does. */
  status?: string;
  externalCustomerId?: string;
  /** Codes of the coupons, deleted ones included. */
  couponCodes?: string[];
}

/** GET /applied_coupons: newest first, each with its credits; an unknown customer has none. */
export async function listAppliedCoupons(
  deps: CatalogDeps,
  organizationId: string,
  query: AppliedCouponQuery,
  page: PageRequest,
  requestId?: string,
) {
  const filter: AppliedCouponFilter = {};
  if (APPLIED_COUPON_STATUSES.includes(query.status as AppliedCouponStatus))
    filter.status = query.status as AppliedCouponStatus;
  if (query.externalCustomerId) {
    const customer = await deps.customers.find(organizationId, query.externalCustomerId, requestId);
    if (!customer) return { items: [], total: 0 };
    filter.customerId = customer.id;
  }
  if (query.couponCodes?.length)
    filter.couponIds = await deps.appliedCoupons.coupons.idsByCodes(organizationId, query.couponCodes);
  const { items, total } = await deps.appliedCoupons.list(organizationId, filter, page);
  return { items: await withCoupons(deps, organizationId, items), total };
}
