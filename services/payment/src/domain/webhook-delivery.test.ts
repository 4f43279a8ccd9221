import { describe, expect, it } from "vitest";
import { RETRY_DELAYS_S, retryDelayMs } from "./webhook-delivery";

describe("retry schedule", () => {
  it("keeps trying for more than a day, then gives up", () => {
    const total = RETRY_DELAYS_S.reduce((a, b) => a + b, 0);
    expect(total * 0.8).toBeGreaterThan(24 * 3600);
    expect(retryDelayMs(RETRY_DELAYS_S.length + 1)).toBeNull();
  });

  it("backs off with ±20 % jitter", () => {
    expect(retryDelayMs(1, 1, () => 0)).toBe(4_000);
    expect(retryDelayMs(1, 1, () => 1)).toBe(6_000);
    expect(retryDelayMs(2, 1, () => 0.5)).toBe(30_000);
    for (let i = 1; i < RETRY_DELAYS_S.length; i++)
      expect(RETRY_DELAYS_S[i]).toBeGreaterThanOrEqual(RETRY_DELAYS_S[i - 1]!);
    expect(retryDelayMs(3, 0.001, () => 0.5)).toBe(120);
  });
});
