/**
 * Merges requests of the same key so that a burst costs one run per run-time, not one per
 * request: a request that arrives while a run for its key is under way joins the next run (with
 * every other request that arrives meanwhile), and is answered when a run that started after it
 * has ended. A consumer acknowledges a message once its request is answered, so every message is
 * acknowledged only after a run that saw it. One run at a time per key; keys run independently.
 * A failed run fails every request it answered (each message is then redelivered).
 */
export class Coalescer<T = string> {
  private readonly keys = new Map<
    string,
    { running: boolean; next: { items: Set<T>; waiters: Array<(err?: unknown) => void> } | null }
  >();

  request(key: string, items: Iterable<T>, run: (items: T[]) => Promise<void>): Promise<void> {
    const state = this.keys.get(key) ?? { running: false, next: null };
    this.keys.set(key, state);
    state.next ??= { items: new Set(), waiters: [] };
    for (const item of items) state.next.items.add(item);
    const answered = new Promise<void>((resolve, reject) =>
      state.next!.waiters.push((err) => (err ? reject(err) : resolve())),
    );
    if (!state.running) this.start(key, run);
    return answered;
  }

  private start(key: string, run: (items: T[]) => Promise<void>): void {
    const state = this.keys.get(key)!;
    const batch = state.next!;
    state.next = null;
    state.running = true;
    run([...batch.items])
      .then(
        () => batch.waiters.forEach((w) => w()),
        (err: unknown) => batch.waiters.forEach((w) => w(err)),
      )
      .finally(() => {
        state.running = false;
        if (state.next) this.start(key, run);
        else this.keys.delete(key);
      });
  }
}
