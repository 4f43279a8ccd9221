import { describe, expect, it } from "vitest";
import type { PeriodQuery, UsageEventRecord } from "../../domain/usage-event";
import { CachedUsageReader } from "./cached-usage-reader";

const query = (sub: string): PeriodQuery => ({
  organizationId: "o",
  externalSubscriptionId: sub,
  code: "c",
  from: new Date(0),
  to: new Date(10),
});
const flush = () => new Promise((r) => setImmediate(r));

/** A reader that answers each read with its own number, and counts the reads. */
function counting() {
  const reads: string[] = [];
  const reader = {
    events: async (q: PeriodQuery) => (
      reads.push(q.externalSubscriptionId),
      [{ n: reads.length }] as unknown as UsageEventRecord[]
    ),
  };
  return { reads, reader };
}
const n = (events: UsageEventRecord[]) => (events[0] as unknown as { n: number }).n;

describe("CachedUsageReader", () => {
  it("answers a period from memory, one query for concurrent reads, refreshed in the background once expired", async () => {
    let now = 0;
    const { reads, reader } = counting();
    const cached = new CachedUsageReader(reader, { ttlMs: 1000, maxEntries: 10, now: () => now });
    const [a, b] = await Promise.all([cached.events(query("a")), cached.events(query("a"))]);
    expect([n(a), n(b)]).toEqual([1, 1]);
    now = 999;
    expect(n(await cached.events(query("a")))).toBe(1);
    expect(reads).toEqual(["a"]);
    now = 1000;
    // expired: the last answer at once, one new read behind it; then the new answer
    const stale = await Promise.all([cached.events(query("a")), cached.events(query("a"))]);
    expect(stale.map(n)).toEqual([1, 1]);
    await flush();
    expect(reads).toEqual(["a", "a"]);
    expect(n(await cached.events(query("a")))).toBe(2);
  });

  it("keeps at most maxEntries periods and forgets a failed read", async () => {
    const { reads, reader } = counting();
    const cached = new CachedUsageReader(reader, { ttlMs: 60_000, maxEntries: 2, now: () => 0 });
    for (const s of ["a", "b", "c", "a"]) await cached.events(query(s));
    expect(reads).toEqual(["a", "b", "c", "a"]);
    let fail = true;
    const flaky = new CachedUsageReader(
      { events: async () => (fail ? Promise.reject(new Error("down")) : []) },
      { ttlMs: 60_000, maxEntries: 2 },
    );
    await expect(flaky.events(query("a"))).rejects.toThrow("down");
    await flush();
    fail = false;
    await expect(flaky.events(query("a"))).resolves.toEqual([]);
  });

  it("reads through when disabled", async () => {
    const { reads, reader } = counting();
    const cached = new CachedUsageReader(reader, { ttlMs: 0, maxEntries: 2 });
    await cached.events(query("a"));
    await cached.events(query("a"));
    expect(reads).toEqual(["a", "a"]);
  });
});
