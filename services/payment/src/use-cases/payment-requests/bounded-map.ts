/** Peer reads one operation makes, at most this many at once (a page holds up to 1,000 requests). */
const READS_AT_ONCE = 16;

/** `read` of every item, in order, with at most READS_AT_ONCE under way. */
export async function boundedMap<T, R>(items: readonly T[], read: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await read(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(READS_AT_ONCE, items.length) }, worker));
  return results;
}
