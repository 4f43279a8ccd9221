import { describe, expect, it } from "vitest";
import { computeChargeFee } from "./charge-fee";
import { Decimal } from "./decimal";

const standard = (amount: string) => ({ charge_model: "standard" as const, properties: { amount } });
const agg = (units: string, eventsCount = 1) => ({ units: new Decimal(units), eventsCount });

describe("charge fee rounding", () => {
  it("rounds amount_cents half away from zero and truncates unit_amount_cents", () => {
    const fee = computeChargeFee({ charge: standard("0.015"), aggregation: agg("1"), currency: "EUR" });
    expect(fee).toMatchObject({
      amount_cents: 2,
      precise_amount_cents: "1.5",
      unit_amount_cents: 1,
      precise_unit_amount: "0.015",
      units: "1.0",
    });
  });

  it("rounds at the currency exponent (JPY 0, KWD 3)", () => {
    expect(computeChargeFee({ charge: standard("1"), aggregation: agg("1234.56"), currency: "JPY" }).amount_cents).toBe(
      1235,
    );
    expect(computeChargeFee({ charge: standard("0.0005"), aggregation: agg("3"), currency: "KWD" }).amount_cents).toBe(
      2,
    );
  });

  it("forces a zero fee on negative units but keeps the raw aggregate", () => {
    const fee = computeChargeFee({ charge: standard("2"), aggregation: agg("-10"), currency: "EUR" });
    expect(fee).toMatchObject({
      amount_cents: 0,
      units: "0.0",
      total_aggregated_units: "-10.0",
      precise_unit_amount: "0.0",
    });
  });

  it("persists a zero-usage graduated fee that charges a flat first tier", () => {
    const charge = {
      charge_model: "graduated" as const,
      properties: { graduated_ranges: [{ from_value: 0, to_value: null, per_unit_amount: "1", flat_amount: "5" }] },
    };
    const fee = computeChargeFee({ charge, aggregation: agg("0", 0), currency: "USD" });
    expect(fee).toMatchObject({ amount_cents: 500, persistable: true, unit_amount_cents: 0 });
  });

  it("does not persist an empty standard fee", () => {
    expect(computeChargeFee({ charge: standard("1"), aggregation: agg("0", 0), currency: "EUR" }).persistable).toBe(
      false,
    );
  });

  it("shows the non-prorated units on a prorated charge", () => {
    const fee = computeChargeFee({
      charge: { ...standard("10"), prorated: true },
      aggregation: { units: new Decimal("1.5"), fullUnitsNumber: new Decimal(3), eventsCount: 3 },
      currency: "EUR",
    });
    expect(fee).toMatchObject({ units: "3.0", amount_cents: 1500, precise_unit_amount: "5.0" });
  });

  it("compiles properties once per properties object", () => {
    const charge = standard("3");
    const first = computeChargeFee({ charge, aggregation: agg("2"), currency: "EUR" });
    charge.properties.amount = "100";
    expect(computeChargeFee({ charge, aggregation: agg("2"), currency: "EUR" }).amount_cents).toBe(first.amount_cents);
  });
});
