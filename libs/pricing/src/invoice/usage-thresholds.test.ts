import { describe, expect, it } from "vitest";
import { progressiveCreditAmount } from "./progressive-credit";
import { crossedUsageThresholds, usageThresholdsProgress } from "./usage-thresholds";

// Lago's scenario "combination of single thresholds and recurring": fixed 200, 500, 700 and a
// recurring 1000; each event adds usage at 0.0002 per unit (11000 units = 220 cents).
const thresholds = [
  { amount_cents: 200 },
  { amount_cents: 500 },
  { amount_cents: 700 },
  { amount_cents: 1000, recurring: true },
];
const amounts = (list: ReadonlyArray<{ amount_cents: number }>) => list.map((t) => t.amount_cents);

describe("crossedUsageThresholds", () => {
  it("walks Lago's combined fixed and recurring story, period by period", () => {
    const period = { thresholds, historical_usage_cents: 0, invoiced_usage_cents: 0 };
    // day 5: 220 of usage crosses 200
    expect(
      amounts(crossedUsageThresholds({ ...period, current_usage_cents: 220, progressive_billed_cents: 0 })),
    ).toEqual([200]);
    // day 10: 440, 220 of it billed: nothing new
    expect(crossedUsageThresholds({ ...period, current_usage_cents: 440, progressive_billed_cents: 220 })).toEqual([]);
    // day 15: 660 crosses 500; day 20: 880 crosses 700
    expect(
      amounts(crossedUsageThresholds({ ...period, current_usage_cents: 660, progressive_billed_cents: 220 })),
    ).toEqual([500]);
    expect(
      amounts(crossedUsageThresholds({ ...period, current_usage_cents: 880, progressive_billed_cents: 660 })),
    ).toEqual([700]);
    // days 25 and 27: +2200 each, every fixed threshold passed: the recurring one each time
    expect(
      amounts(crossedUsageThresholds({ ...period, current_usage_cents: 3080, progressive_billed_cents: 880 })),
    ).toEqual([1000]);
    expect(
      amounts(crossedUsageThresholds({ ...period, current_usage_cents: 5280, progressive_billed_cents: 3080 })),
    ).toEqual([1000]);
    // next period: 5280 invoiced on the period invoice; 2200 more: 280 + 2200 ≥ 1000
    const next = { thresholds, historical_usage_cents: 0, invoiced_usage_cents: 5280, progressive_billed_cents: 0 };
    expect(amounts(crossedUsageThresholds({ ...next, current_usage_cents: 2200 }))).toEqual([1000]);
    expect(crossedUsageThresholds({ ...next, current_usage_cents: 700 })).toEqual([]);
  });

  it("crosses several fixed thresholds (and the recurring one beyond them) in one step", () => {
    const none = { historical_usage_cents: 0, invoiced_usage_cents: 0, progressive_billed_cents: 0 };
    expect(amounts(crossedUsageThresholds({ thresholds, ...none, current_usage_cents: 700 }))).toEqual([200, 500, 700]);
    expect(amounts(crossedUsageThresholds({ thresholds, ...none, current_usage_cents: 1700 }))).toEqual([
      200, 500, 700, 1000,
    ]);
  });

  it("never crosses a fixed threshold again in a later period, and counts historical usage", () => {
    const fixedOnly = [{ amount_cents: 20_000 }];
    expect(
      crossedUsageThresholds({
        thresholds: fixedOnly,
        historical_usage_cents: 0,
        invoiced_usage_cents: 20_000,
        progressive_billed_cents: 0,
        current_usage_cents: 40_000,
      }),
    ).toEqual([]);
    expect(
      crossedUsageThresholds({
        thresholds: fixedOnly,
        historical_usage_cents: 19_000,
        invoiced_usage_cents: 0,
        progressive_billed_cents: 0,
        current_usage_cents: 999,
      }),
    ).toEqual([]);
    expect(
      amounts(
        crossedUsageThresholds({
          thresholds: fixedOnly,
          historical_usage_cents: 19_000,
          invoiced_usage_cents: 0,
          progressive_billed_cents: 0,
          current_usage_cents: 1_000,
        }),
      ),
    ).toEqual([20_000]);
  });

  it("stops when the current usage is below what was progressively billed", () => {
    expect(
      crossedUsageThresholds({
        thresholds,
        historical_usage_cents: 0,
        invoiced_usage_cents: 0,
        progressive_billed_cents: 900,
        current_usage_cents: 800,
      }),
    ).toEqual([]);
  });
});

describe("usageThresholdsProgress", () => {
  it("shows the passed fixed thresholds, the next one's ratio, then the recurring step", () => {
    const progress = usageThresholdsProgress(thresholds, 600);
    expect(progress.map((p) => [p.amount_cents, p.completion_ratio, p.reached])).toEqual([
      [200, 1, true],
      [500, 1, true],
      [700, 0.5, false],
      [1700, 0, false],
    ]);
  });

  it("counts recurring steps once every fixed threshold is passed", () => {
    const progress = usageThresholdsProgress(thresholds, 3080);
    expect(progress.map((p) => [p.amount_cents, p.completion_ratio])).toEqual([
      [200, 1],
      [500, 1],
      [700, 1],
      [1700, 1],
      [2700, 1],
      [3700, 0.38],
    ]);
  });

  it("is empty without thresholds", () => {
    expect(usageThresholdsProgress([], 1000)).toEqual([]);
  });
});

describe("progressiveCreditAmount", () => {
  it("credits the latest progressive invoice's fees less its coupons, what others took and its credit notes", () => {
    expect(progressiveCreditAmount({ fees_amount_cents: 5_280, coupons_amount_cents: 0 })).toBe(5_280);
    expect(
      progressiveCreditAmount({
        fees_amount_cents: 5_280,
        coupons_amount_cents: 280,
        credited_elsewhere_cents: 1_000,
        credit_notes_cents: 4_500,
      }),
    ).toBe(0);
  });
});
