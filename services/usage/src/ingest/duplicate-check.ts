import type { BloomFilter } from "./bloom-filter";
import type { DedupWindow, Ticket } from "./dedup-window";

export interface DuplicateSources {
  window: DedupWindow;
  bloom: BloomFilter;
  /** Which of these keys are stored (asked only for the Bloom filter's positives). */
  storedAmong(keys: string[]): Promise<Set<string>>;
}

/**
 * The indexes of a request's events whose key is repeated inside it, acknowledged within the
 * window, or stored. Per request, not per event: one pass in memory, and at most one MongoDB
 * query, for the Bloom filter's positives only. When nothing is duplicated the keys are reserved
 * for `ticket` before any await, so a concurrent request with one of them waits for this one's
 * outcome instead of slipping through.
 */
export async function checkDuplicates(keys: readonly string[], sources: DuplicateSources, ticket: Ticket): Promise<number[]> {
  for (;;) {
    const duplicates: number[] = [];
    const positives: number[] = [];
    const pending = new Set<Ticket>();
    const seen = new Set<string>();
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (seen.has(key)) {
        duplicates.push(i);
        continue;
      }
      seen.add(key);
      const entry = sources.window.get(key);
      if (entry === undefined) {
        if (sources.bloom.has(key)) positives.push(i);
      } else if (typeof entry === "number") duplicates.push(i);
      else pending.add(entry);
    }
    if (pending.size > 0) {
      // another request is publishing one of these keys: its outcome decides
      await Promise.all([...pending].map((t) => t.settled));
      continue;
    }
    if (duplicates.length === 0) sources.window.reserve(keys, ticket);
    if (positives.length > 0) {
      const stored = await sources.storedAmong(positives.map((i) => keys[i]!));
      for (const i of positives) if (stored.has(keys[i]!)) duplicates.push(i);
    }
    if (duplicates.length > 0) sources.window.release(keys, ticket);
    return duplicates.sort((a, b) => a - b);
  }
}
