const NONE: ReadonlySet<string> = new Set();

/** Ids grouped by a key (an organization's metric code, its subscriptions' external id): the read copies' secondary indexes. */
export class IdsByKey {
  private readonly sets = new Map<string, Set<string>>();

  add(key: string, id: string): void {
    let ids = this.sets.get(key);
    if (!ids) this.sets.set(key, (ids = new Set()));
    ids.add(id);
  }

  delete(key: string, id: string): void {
    const ids = this.sets.get(key);
    ids?.delete(id);
    if (ids?.size === 0) this.sets.delete(key);
  }

  get(key: string): ReadonlySet<string> {
    return this.sets.get(key) ?? NONE;
  }
}
