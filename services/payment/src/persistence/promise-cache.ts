/**
 * Reads kept by key as their promises, for `ttlMs` (for good when absent), so concurrent askers
 * share one read; a read that fails is forgotten at once and the next asker reads again. Past
 * `maxEntries` the whole cache is dropped (the readers refill it).
 */
export class PromiseCache<K, V> {
  private readonly entries = new Map<K, { at: number; value: Promise<V> }>();

  constructor(private readonly options: { ttlMs?: number; maxEntries?: number } = {}) {}

  get(key: K, read: () => Promise<V>): Promise<V> {
    const cached = this.entries.get(key);
    if (cached && (this.options.ttlMs === undefined || Date.now() - cached.at < this.options.ttlMs))
      return cached.value;
    const value = read();
    this.entries.set(key, { at: Date.now(), value });
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    if (this.options.maxEntries !== undefined && this.entries.size > this.options.maxEntries) this.entries.clear();
    return value;
  }

  delete(key: K): void {
    this.entries.delete(key);
  }
}
