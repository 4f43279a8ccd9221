import { describe, expect, it } from "vitest";
import { progressiveExcessItems } from "./progressive-credit";

describe("progressiveExcessItems", () => {
  it("spreads the excess over the progressive invoice's fees, the dearest first, each up to what is left of it", () => {
    const fees = [
      { id: "a", amount_cents: 300, creditable_cents: 300 },
      { id: "b", amount_cents: 1_000, creditable_cents: 400 },
    ];
    expect(progressiveExcessItems(fees, 500)).toEqual([
      { fee_id: "b", amount_cents: 400 },
      { fee_id: "a", amount_cents: 100 },
    ]);
    expect(progressiveExcessItems(fees, 400)).toEqual([{ fee_id: "b", amount_cents: 400 }]);
  });

  it("is null when the fees cannot hold the excess", () => {
    expect(progressiveExcessItems([{ id: "a", amount_cents: 300, creditable_cents: 100 }], 200)).toBeNull();
  });
});
