import { randomUUID } from "node:crypto";
import { isCurrencyCode } from "@billing/codes";
import { AppError } from "@billing/errors";
import { LOST_RACE, retryOnLostRace } from "@billing/mongo";
import type { AppliedCouponCredit, AppliedCouponWithCoupon } from "../../domain/applied-coupon";
import { consume, consumptionRefusal } from "../../domain/applied-coupon-consumption";
import { Violations } from "../../domain/patch";
import type { CatalogDeps } from "../deps";
import { refuseIfInvalid } from "../catalog-record-writes";
import { withCoupons } from "./applied-coupon-refs";

export interface CreditRequest {
  appliedCouponId: string;
  invoiceId: string;
  /** The credit invoicing computed, in the invoice's currency. */
  amountCents: number;
  amountCurrency: string;
}

export interface ConsumedCoupon {
  credit: AppliedCouponCredit;
  appliedCoupon: AppliedCouponWithCoupon;
}

function requestViolations(request: CreditRequest) {
  const v = new Violations();
  v.mandatory("applied_coupon_id", request.appliedCouponId);
  v.mandatory("invoice_id", request.invoiceId);
  if (!Number.isSafeInteger(request.amountCents) || request.amountCents < 0) v.add("amount_cents", "value_is_invalid");
  if (v.mandatory("amount_currency", request.amountCurrency) && !isCurrencyCode(request.amountCurrency))
    v.add("amount_currency", "value_is_invalid");
  return v.result();
}

/**
 * Records the credit an invoice takes from an applied coupon, idempotently by invoice id: the
 * counters, the status and the credit change in one conditional update that skips a document
 * already holding that invoice's credit; a replay answers the credit first recorded. A lost race
 * with another invoice reads again and retries.
 */
export async function consumeAppliedCoupon(
  deps: CatalogDeps,
  organizationId: string,
  request: CreditRequest,
): Promise<ConsumedCoupon> {
  refuseIfInvalid(requestViolations(request));
  return retryOnLostRace(
    "applied coupon",
    async () => {
      const current = await deps.appliedCoupons.find(organizationId, request.appliedCouponId);
      if (!current) throw AppError.notFound("applied_coupon");
      const [withCoupon] = await withCoupons(deps, organizationId, [current]);
      const recorded = current.credits.find((c) => c.invoice_id === request.invoiceId);
      if (recorded) return { credit: recorded, appliedCoupon: withCoupon! };

      const couponType = withCoupon!.coupon.coupon_type;
      const credit = { amount_cents: request.amountCents, amount_currency: request.amountCurrency.toUpperCase() };
      const refusal = consumptionRefusal(current, couponType, credit);
      if (refusal) throw new AppError("failed_precondition", refusal);
      const now = deps.clock.now();
      const entry: AppliedCouponCredit = {
        id: randomUUID(),
        invoice_id: request.invoiceId,
        ...credit,
        created_at: now,
      };
      const updated = await deps.appliedCoupons.recordCredit(
        current,
        entry,
        consume(current, couponType, credit.amount_cents),
        now,
      );
      return updated ? { credit: entry, appliedCoupon: { ...withCoupon!, applied: updated } } : LOST_RACE;
    },
    10,
  );
}
