import { AppError } from "@billing/errors";
import { LOST_RACE, retryOnLostRace } from "@billing/mongo";
import type { AppliedCoupon } from "../../domain/applied-coupon";
import { recredit } from "../../domain/applied-coupon-consumption";
import { Violations } from "../../domain/patch";
import { refuseIfInvalid } from "../catalog-record-writes";
import type { CatalogDeps } from "../deps";
import { withCoupons } from "./applied-coupon-refs";

/**
 * A voided invoice gives back the credit it took from an applied coupon (Lago's void recredits
 * every coupon credit of the invoice): once per (applied coupon, invoice), whatever the retries or
 * redeliveries. An invoice that took no credit from it, or one already given back, changes
 * nothing. Answers the applied coupon as it is after.
 */
export async function recreditAppliedCoupon(
  deps: CatalogDeps,
  organizationId: string,
  request: { appliedCouponId: string; invoiceId: string },
): Promise<{ applied: AppliedCoupon; recredited: boolean }> {
  const v = new Violations();
  v.mandatory("applied_coupon_id", request.appliedCouponId);
  v.mandatory("invoice_id", request.invoiceId);
  refuseIfInvalid(v.result());
  return retryOnLostRace(
    "applied coupon recredit",
    async () => {
      const current = await deps.appliedCoupons.find(organizationId, request.appliedCouponId);
      if (!current) throw AppError.notFound("applied_coupon");
      const credit = current.credits.find((c) => c.invoice_id === request.invoiceId);
      if (!credit || (current.recredited_invoice_ids ?? []).includes(request.invoiceId))
        return { applied: current, recredited: false };
      const [withCoupon] = await withCoupons(deps, organizationId, [current]);
      const next = recredit(current, credit, withCoupon!.coupon.status === "terminated");
      const now = deps.clock.now();
      if (!(await deps.appliedCoupons.recordRecredit(current, request.invoiceId, next, now))) return LOST_RACE;
      const applied: AppliedCoupon = {
        ...current,
        amount_cents_remaining: next.amount_cents_remaining,
        frequency_duration_remaining: next.frequency_duration_remaining,
        updated_at: now,
        recredited_invoice_ids: [...(current.recredited_invoice_ids ?? []), request.invoiceId],
        ...(next.reactivated ? { status: "active" as const, terminated_at: null } : {}),
      };
      return { applied, recredited: true };
    },
    10,
  );
}
