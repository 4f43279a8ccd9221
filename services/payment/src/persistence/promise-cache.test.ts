import { describe, expect, it } from "vitest";
import { PromiseCache } from "./promise-cache";

describe("PromiseCache", () => {
  it("shares one read between askers and forgets a failed read", async () => {
    const cache = new PromiseCache<string, number>();
    let reads = 0;
    const read = () => Promise.resolve(++reads);
    expect(await Promise.all([cache.get("a", read), cache.get("a", read)])).toEqual([1, 1]);
    await expect(cache.get("b", () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect(await cache.get("b", read)).toBe(2);
    cache.delete("a");
    expect(await cache.get("a", read)).toBe(3);
  });

  it("reads again once an entry is older than its ttl", async () => {
    const cache = new PromiseCache<string, number>({ ttlMs: 0 });
    let reads = 0;
    await cache.get("a", async () => ++reads);
    expect(await cache.get("a", async () => ++reads)).toBe(2);
  });
});
