import type { Request } from "express";
import { pageQuery, stringList, stringParam } from "../../http/validation";
import type { AppliedCouponInput } from "./validators";

/** The proto AppliedCouponInput: overrides sent as null are left out (the coupon's value applies). */
export function toAppliedCouponMessage(input: AppliedCouponInput) {
  const message: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) if (value !== null && value !== undefined) message[key] = value;
  return message;
}

/** ListAppliedCouponsRequest from the query: page, per_page, status, external_customer_id, coupon_code[]. */
export function toListMessage(organizationId: string, req: Request) {
  return {
    organization_id: organizationId,
    page: pageQuery(req),
    status: stringParam(req.query.status),
    external_customer_id: stringParam(req.query.external_customer_id),
    coupon_codes: stringList(req.query.coupon_code),
  };
}
