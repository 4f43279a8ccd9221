import { describe, expect, it } from "vitest";
import { type FixedChargeDefinition, computeFixedChargeFee } from "./fixed-charge-fee";

const march = { from: "2024-03-01T00:00:00.000Z", to: "2024-03-31T23:59:59.999Z", periodDays: 31 };
const standard: FixedChargeDefinition = { charge_model: "standard", properties: { amount: "10" } };
const prorated: FixedChargeDefinition = { ...standard, prorated: true };
const levels = [
  { units: 2, from: "2024-02-20T00:00:00Z" },
  { units: 5, from: "2024-03-15T10:00:00Z" },
];

describe("fixed charge fees", () => {
  it("bills units × the model for a whole period", () => {
    const fee = computeFixedChargeFee({ fixed_charge: standard, units: 3, period: march, currency: "EUR" });
    expect(fee).toMatchObject({ amount_cents: 3000, units: "3.0", unit_amount_cents: 1000, persistable: true });
  });

  it("bills the count in effect at the end of the span when not prorated", () => {
    expect(
      computeFixedChargeFee({ fixed_charge: standard, units: levels, period: march, currency: "EUR" }),
    ).toMatchObject({ amount_cents: 5000, units: "5.0" });
  });

  it("prorates a partial first period by whole days (Mar 10–31 of 31), showing the full count", () => {
    const span = { ...march, from: "2024-03-10T00:00:00.000Z" };
    // 3 × 22 / 31 = 2.12903… ceil'ed to 2.12904
    const fee = computeFixedChargeFee({ fixed_charge: prorated, units: 3, period: span, currency: "EUR" });
    expect(fee).toMatchObject({ amount_cents: 2129, precise_amount_cents: "2129.04", units: "3.0" });
  });

  it("prorates unit changes within the period, the change day at the new count", () => {
    // 2 × 14 days (Mar 1–14) + 5 × 17 days (Mar 15–31) = 113 / 31 = 3.64517
    const fee = computeFixedChargeFee({ fixed_charge: prorated, units: levels, period: march, currency: "EUR" });
    expect(fee).toMatchObject({ amount_cents: 3645, precise_amount_cents: "3645.17", units: "5.0" });
  });

  it("counts the days in the customer's zone (03:00Z on Mar 15 is Mar 14 in New York)", () => {
    const ny = {
      from: "2024-03-01T05:00:00.000Z",
      to: "2024-04-01T03:59:59.999Z",
      periodDays: 31,
      timeZone: "America/New_York",
    };
    const shifted = [levels[0]!, { units: 5, from: "2024-03-15T03:00:00Z" }];
    // 2 × 13 + 5 × 18 = 116 / 31 = 3.74194
    expect(
      computeFixedChargeFee({ fixed_charge: prorated, units: shifted, period: ny, currency: "EUR" }).amount_cents,
    ).toBe(3742);
  });

  it("prices prorated units with graduated tiers, and picks the volume tier on the full count", () => {
    const graduated: FixedChargeDefinition = {
      charge_model: "graduated",
      prorated: true,
      properties: {
        graduated_ranges: [
          { from_value: 0, to_value: 2, per_unit_amount: "10", flat_amount: "0" },
          { from_value: 2, to_value: null, per_unit_amount: "5", flat_amount: "0" },
        ],
      },
    };
    // 2 × 10 + 1.64517 × 5
    expect(
      computeFixedChargeFee({ fixed_charge: graduated, units: levels, period: march, currency: "EUR" }).amount_cents,
    ).toBe(2823);
    const volume: FixedChargeDefinition = {
      charge_model: "volume",
      prorated: true,
      properties: {
        volume_ranges: [
          { from_value: 0, to_value: 4, per_unit_amount: "10", flat_amount: "0" },
          { from_value: 5, to_value: null, per_unit_amount: "8", flat_amount: "0" },
        ],
      },
    };
    // tier of 5 units (8 each) × 3.64517 prorated units
    expect(
      computeFixedChargeFee({ fixed_charge: volume, units: levels, period: march, currency: "EUR" }).amount_cents,
    ).toBe(2916);
  });

  it("bills a pay-in-advance fixed charge for the whole period that starts", () => {
    const april = { from: "2024-04-01T00:00:00.000Z", to: "2024-04-30T23:59:59.999Z", periodDays: 30 };
    const fee = computeFixedChargeFee({
      fixed_charge: { ...prorated, pay_in_advance: true },
      units: levels,
      period: april,
      currency: "EUR",
    });
    expect(fee).toMatchObject({ amount_cents: 5000, units: "5.0" });
  });

  it("gives an empty fee for no units, and rounds at the currency exponent", () => {
    expect(computeFixedChargeFee({ fixed_charge: standard, units: 0, period: march, currency: "EUR" })).toMatchObject({
      amount_cents: 0,
      persistable: false,
    });
    const yen = computeFixedChargeFee({
      fixed_charge: { charge_model: "standard", properties: { amount: "333.5" }, prorated: true },
      units: 1,
      period: { ...march, from: "2024-03-17T00:00:00.000Z" },
      currency: "JPY",
    });
    // 333.5 × 15 / 31 (0.48388 ceil'ed) = 161.37398 → 161
    expect(yen.amount_cents).toBe(161);
  });
});
