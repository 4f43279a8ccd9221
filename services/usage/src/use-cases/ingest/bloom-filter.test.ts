import { describe, expect, it } from "vitest";
import { BloomFilter } from "./bloom-filter";

describe("Bloom filter of stored keys", () => {
  it("never forgets a key and keeps false positives near its rate, growing past its capacity", () => {
    const bloom = new BloomFilter(10_000, 0.001);
    const key = (i: number) => JSON.stringify(["org", `sub_${i % 97}`, `tx-${i}`]);
    for (let i = 0; i < 50_000; i++) bloom.add(key(i));
    for (let i = 0; i < 50_000; i++) expect(bloom.has(key(i))).toBe(true);
    let positives = 0;
    for (let i = 50_000; i < 150_000; i++) if (bloom.has(key(i))) positives++;
    expect(positives / 100_000).toBeLessThan(0.002);
    expect(bloom.size).toBe(50_000);
  });
});
