import type { LeasedDelivery, WebhookRepository } from "./webhook-repository";

interface Waiting {
  entries: readonly LeasedDelivery[];
  resolve(stored: Set<string>): void;
  reject(err: unknown): void;
}

/**
 * Stores the deliveries of many events in one write (group commit): the fan-outs that arrive
 * while a write is running are written together by the next one. Each caller learns which of its
 * deliveries were new, or the write's error (its event is then redelivered).
 */
export class DeliveryInserter {
  private waiting: Waiting[] = [];
  private running = false;

  constructor(
    private readonly repository: WebhookRepository,
    private readonly maxPerWrite = 2000,
  ) {}

  insert(entries: readonly LeasedDelivery[]): Promise<Set<string>> {
    if (entries.length === 0) return Promise.resolve(new Set());
    return new Promise((resolve, reject) => {
      this.waiting.push({ entries, resolve, reject });
      if (!this.running) void this.rounds();
    });
  }

  private async rounds(): Promise<void> {
    this.running = true;
    while (this.waiting.length > 0) {
      const taken: Waiting[] = [];
      let size = 0;
      while (
        this.waiting.length > 0 &&
        (taken.length === 0 || size + this.waiting[0]!.entries.length <= this.maxPerWrite)
      ) {
        const next = this.waiting.shift()!;
        taken.push(next);
        size += next.entries.length;
      }
      try {
        const stored = await this.repository.insertDeliveries(taken.flatMap((t) => t.entries));
        for (const t of taken) t.resolve(new Set(t.entries.map((e) => e.delivery.id).filter((id) => stored.has(id))));
      } catch (err) {
        for (const t of taken) t.reject(err);
      }
    }
    this.running = false;
  }
}
