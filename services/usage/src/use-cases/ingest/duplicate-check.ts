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
 * query, for the Bloom filter's positives only. Each new key is reserved for `ticket` as the pass
 * meets it (which also finds the keys repeated inside the request), before any await, so a
 * concurrent request with one of them waits for this one's outcome instead of slipping through;
 * a refused request releases them.
 */
export async function checkDuplicates(
  keys: readonly string[],
  sources: DuplicateSources,
  ticket: Ticket,
): Promise<number[]> {
  for (;;) {
    const duplicates: number[] = [];
    const positives: number[] = [];
    let pending: Set<Ticket> | null = null;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const entry = sources.window.get(key);
      if (entry === undefined) {
        sources.window.hold(key, ticket);
        if (sources.bloom.has(key)) positives.push(i);
      } else if (entry === ticket || typeof entry === "number") duplicates.push(i);
      else (pending ??= new Set()).add(entry);
    }
    if (pending) {
      // another request is publishing one of these keys: its outcome decides
      sources.window.unhold(keys, ticket);
      await Promise.all([...pending].map((t) => t.settled));
      continue;
    }
    if (positives.length > 0) {
      const stored = await sources.storedAmong(positives.map((i) => keys[i]!));
      for (const i of positives) if (stored.has(keys[i]!)) duplicates.push(i);
    }
    if (duplicates.length > 0) sources.window.release(keys, ticket);
    return duplicates.sort((a, b) => a - b);
  }
}
