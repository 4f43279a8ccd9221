import { describe, expect, it } from "vitest";
import { computeCommitmentTrueUp } from "./commitment";

describe("minimum commitment true-up", () => {
  const fees = [{ amount_cents: 3000 }, { amount_cents: 2500, precise_amount_cents: "2500.4" }];

  it("bills what the period's fees miss of the commitment", () => {
    expect(computeCommitmentTrueUp({ commitment_amount_cents: 10000, fees, period_days: 31, currency: "EUR" })).toEqual(
      {
        amount_cents: 4500,
        precise_amount_cents: "4499.6",
        unit_amount_cents: 4500,
        precise_unit_amount: "45.0",
        units: "1.0",
        events_count: 0,
        commitment_amount_cents: 10000,
      },
    );
  });

  it("is zero once the fees reach the commitment", () => {
    expect(computeCommitmentTrueUp({ commitment_amount_cents: 5000, fees, currency: "EUR" })).toMatchObject({
      amount_cents: 0,
      precise_amount_cents: "0.0",
    });
    expect(computeCommitmentTrueUp({ commitment_amount_cents: 5500, fees, currency: "EUR" })).toMatchObject({
      amount_cents: 0,
      precise_amount_cents: "0.0",
    });
  });

  it("prorates the commitment over the billed days with a Float coefficient, rounded half away from zero", () => {
    expect(
      computeCommitmentTrueUp({
        commitment_amount_cents: 10000,
        fees: [{ amount_cents: 2000 }],
        billed_days: 15,
        period_days: 30,
        currency: "EUR",
      }),
    ).toMatchObject({
      amount_cents: 3000,
      commitment_amount_cents: 5000,
    });
    // 10000 × 10/31 = 3225.806… → 3226
    expect(
      computeCommitmentTrueUp({
        commitment_amount_cents: 10000,
        fees: [],
        billed_days: 10,
        period_days: 31,
        currency: "EUR",
      }).commitment_amount_cents,
    ).toBe(3226);
  });

  it("shows the unit amount in major units of the currency", () => {
    expect(
      computeCommitmentTrueUp({ commitment_amount_cents: 1234, fees: [], currency: "JPY" }).precise_unit_amount,
    ).toBe("1234.0");
    expect(
      computeCommitmentTrueUp({ commitment_amount_cents: 1234, fees: [], currency: "KWD" }).precise_unit_amount,
    ).toBe("1.234");
  });
});
