import { describe, expect, it } from "vitest";
import { TokenBuckets } from "./rate-limit";

const takeN = (b: TokenBuckets, key: string, n: number, at: number) => Array.from({ length: n }, () => b.take(key, at));

describe("per-organization token buckets", () => {
  it("accepts a burst, then refuses with the seconds until the next token", () => {
    const b = new TokenBuckets({ perSecond: 2, burst: 5 });
    expect(takeN(b, "org", 5, 0).every((t) => t.ok)).toBe(true);
    expect(b.take("org", 0)).toEqual({ ok: false, retryAfterS: 1 });
    // half a token after 250 ms: still refused; a whole one after 500 ms
    expect(b.take("org", 250).ok).toBe(false);
    expect(b.take("org", 500).ok).toBe(true);
    expect(b.take("org", 500).ok).toBe(false);
  });

  it("refills at the sustained rate, never beyond the burst", () => {
    const b = new TokenBuckets({ perSecond: 10, burst: 3 });
    takeN(b, "org", 3, 0);
    // an hour of silence gives back 3 tokens, not 36,000
    expect(takeN(b, "org", 4, 3_600_000).map((t) => t.ok)).toEqual([true, true, true, false]);
    // 10/s: one request every 100 ms is always accepted
    for (let t = 3_600_100; t < 3_610_000; t += 100) expect(b.take("org", t).ok).toBe(true);
  });

  it("answers Retry-After in whole seconds, at least 1", () => {
    const slow = new TokenBuckets({ perSecond: 0.1, burst: 1 });
    expect(slow.take("org", 0).ok).toBe(true);
    expect(slow.take("org", 0)).toEqual({ ok: false, retryAfterS: 10 });
    expect(slow.take("org", 7_500)).toEqual({ ok: false, retryAfterS: 3 });
    const fast = new TokenBuckets({ perSecond: 1000, burst: 1 });
    fast.take("org", 0);
    expect(fast.take("org", 0)).toEqual({ ok: false, retryAfterS: 1 });
  });

  it("keeps one bucket per organization", () => {
    const b = new TokenBuckets({ perSecond: 1, burst: 2 });
    takeN(b, "a", 2, 0);
    expect(b.take("a", 0).ok).toBe(false);
    expect(takeN(b, "b", 2, 0).every((t) => t.ok)).toBe(true);
  });

  it("is off when the rate or the burst is 0", () => {
    for (const settings of [
      { perSecond: 0, burst: 10 },
      { perSecond: 10, burst: 0 },
    ]) {
      const b = new TokenBuckets(settings);
      expect(b.enabled).toBe(false);
      expect(takeN(b, "org", 1000, 0).every((t) => t.ok)).toBe(true);
      expect(b.size).toBe(0);
    }
  });

  it("forgets idle organizations first when it holds too many buckets", () => {
    const b = new TokenBuckets({ perSecond: 1, burst: 2 }, 3);
    b.take("busy", 0);
    b.take("busy", 0);
    b.take("idle1", 0);
    b.take("idle2", 0);
    // 1 s later idle1 and idle2 are full again (forgotten without loss); busy is not
    b.take("new", 1000);
    expect(b.size).toBe(2);
    expect(b.take("busy", 1000)).toEqual({ ok: true });
    expect(b.take("busy", 1000).ok).toBe(false);
  });

  it("holds at most the cap under many busy organizations", () => {
    const b = new TokenBuckets({ perSecond: 1, burst: 1 }, 100);
    for (let i = 0; i < 1000; i++) b.take(`org${i}`, 0);
    expect(b.size).toBeLessThanOrEqual(100);
  });
});
