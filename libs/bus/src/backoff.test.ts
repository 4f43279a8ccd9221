import { describe, expect, it } from "vitest";
import { backoffDelayMs } from "./backoff";

const policy = { baseMs: 500, maxMs: 300_000 };

describe("backoffDelayMs", () => {
  it("doubles from the base with each delivery (equal jitter: between half and all of it)", () => {
    expect([1, 2, 3, 4, 5].map((n) => backoffDelayMs(n, policy, () => 0))).toEqual([250, 500, 1000, 2000, 4000]);
    expect([1, 2, 3, 4, 5].map((n) => backoffDelayMs(n, policy, () => 1))).toEqual([500, 1000, 2000, 4000, 8000]);
    expect(backoffDelayMs(3, policy, () => 0.5)).toBe(1500);
  });

  it("is capped at the maximum, however many deliveries (no overflow)", () => {
    expect(backoffDelayMs(11, policy, () => 1)).toBe(300_000); // 500 × 2^10 = 512 000 > 300 000
    expect(backoffDelayMs(50, policy, () => 1)).toBe(300_000);
    expect(backoffDelayMs(10_000, policy, () => 0)).toBe(150_000);
    expect(Number.isFinite(backoffDelayMs(Number.MAX_SAFE_INTEGER, policy, () => 1))).toBe(true);
  });

  it("full jitter: anywhere from 0 to the exponential delay", () => {
    expect(backoffDelayMs(4, { ...policy, jitter: "full" }, () => 0)).toBe(0);
    expect(backoffDelayMs(4, { ...policy, jitter: "full" }, () => 0.25)).toBe(1000);
    expect(backoffDelayMs(4, { ...policy, jitter: "full" }, () => 1)).toBe(4000);
  });

  it("stays within its bounds for any delivery count and random draw", () => {
    for (let n = 1; n <= 200; n++) {
      const exponential = Math.min(policy.maxMs, policy.baseMs * 2 ** (n - 1));
      for (const r of [0, 0.1, 0.5, 0.99]) {
        const delay = backoffDelayMs(n, policy, () => r);
        expect(delay).toBeGreaterThanOrEqual(Math.floor(exponential / 2));
        expect(delay).toBeLessThanOrEqual(exponential);
      }
    }
  });

  it("treats a first delivery (or a nonsensical count) as the first failure; a maximum below the base is the base", () => {
    expect(backoffDelayMs(0, policy, () => 1)).toBe(500);
    expect(backoffDelayMs(-3, policy, () => 1)).toBe(500);
    expect(backoffDelayMs(5, { baseMs: 1000, maxMs: 10 }, () => 1)).toBe(1000);
  });

  it("a tiny base makes 60 deliveries' worth of waiting short (the tests' setting)", () => {
    let total = 0;
    for (let n = 1; n <= 60; n++) total += backoffDelayMs(n, { baseMs: 1, maxMs: 20 }, () => 1);
    expect(total).toBeLessThan(60 * 20 + 1);
  });
});
