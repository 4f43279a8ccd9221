import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Decimal } from "../decimal";
import { computeInvoiceTotals } from "./totals";
import type { AppliedCouponInput, InvoiceFeeInput } from "./types";

const feeArb: fc.Arbitrary<InvoiceFeeInput> = fc.record({
  fee_type: fc.constantFrom("charge" as const, "subscription" as const, "add_on" as const),
  amount_cents: fc.integer({ min: 0, max: 1_000_000 }),
  billable_metric_code: fc.constantFrom("m1", "m2"),
  plan_code: fc.constantFrom("p1", "p2"),
  taxes: fc.subarray([
    { code: "vat", rate: "20" },
    { code: "local", rate: "5.5" },
    { code: "zero", rate: "0" },
  ]),
});

const couponArb: fc.Arbitrary<AppliedCouponInput> = fc.record({
  id: fc.uuid(),
  coupon_type: fc.constantFrom("fixed_amount" as const, "percentage" as const),
  frequency: fc.constantFrom("once" as const, "recurring" as const, "forever" as const),
  amount_cents: fc.integer({ min: 1, max: 2_000_000 }),
  percentage_rate: fc.integer({ min: 1, max: 10_000 }).map((n) => (n / 100).toString()),
  frequency_duration_remaining: fc.integer({ min: 1, max: 12 }),
  billable_metric_codes: fc.constantFrom([], ["m1"], ["m2"]),
  plan_codes: fc.constantFrom([], ["p1"]),
});

describe("invoice totals properties", () => {
  it("applying coupons, taxes, credit notes and wallets never yields a negative total", () => {
    fc.assert(
      fc.property(
        fc.array(feeArb, { minLength: 1, maxLength: 8 }),
        fc.array(couponArb, { maxLength: 4 }),
        fc.integer({ min: 0, max: 500_000 }),
        fc.integer({ min: 0, max: 500_000 }),
        (fees, coupons, creditNote, wallet) => {
          const totals = computeInvoiceTotals({
            currency: "EUR",
            fees,
            applied_coupons: coupons,
            credit_notes: [{ id: "cn", balance_amount_cents: creditNote }],
            wallets: [{ id: "w", balance_cents: wallet }],
            finalizing: true,
          });
          expect(totals.sub_total_excluding_taxes_amount_cents).toBeGreaterThanOrEqual(0);
          expect(totals.taxes_amount_cents).toBeGreaterThanOrEqual(0);
          expect(totals.total_amount_cents).toBeGreaterThanOrEqual(0);
          expect(totals.total_amount_cents).toBe(
            totals.sub_total_including_taxes_amount_cents -
              totals.credit_notes_amount_cents -
              totals.prepaid_credit_amount_cents,
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it("fee cents add up to the invoice amounts with no rounding drift", () => {
    fc.assert(
      fc.property(
        fc.array(feeArb, { minLength: 1, maxLength: 8 }),
        fc.array(couponArb, { maxLength: 3 }),
        (fees, coupons) => {
          const totals = computeInvoiceTotals({ currency: "EUR", fees, applied_coupons: coupons, finalizing: true });
          expect(totals.fees_amount_cents).toBe(fees.reduce((s, f) => s + f.amount_cents, 0));
          expect(totals.sub_total_excluding_taxes_amount_cents).toBe(
            totals.fees_amount_cents - totals.coupons_amount_cents,
          );
          // the coupons spread on fees account for the invoice coupons (5-decimal storage aside)
          const spread = totals.fees.reduce((s, f) => s.plus(f.precise_coupons_amount_cents), new Decimal(0));
          expect(spread.minus(totals.coupons_amount_cents).abs().toNumber()).toBeLessThanOrEqual(
            fees.length * 1e-5 * coupons.length + 1e-9,
          );
          // the invoice tax total is within half a cent per tax of the taxes of its applied taxes
          expect(
            Math.abs(totals.taxes_amount_cents - totals.applied_taxes.reduce((s, t) => s + t.amount_cents, 0)),
          ).toBeLessThanOrEqual(totals.applied_taxes.length);
        },
      ),
      { numRuns: 500 },
    );
  });
});
