import { realTime, type RealTime } from "../../domain/real-time";

/** A reservation of keys by one request until its events are acknowledged by JetStream, or not. */
export interface Ticket {
  settled: Promise<void>;
  settle(): void;
}

export function newTicket(): Ticket {
  let settle!: () => void;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  return { settled, settle };
}

/**
 * The keys this process has reserved (a request is publishing them) or acknowledged and not yet
 * stored. A stored key leaves the window (the Bloom filter has it from then on); an acknowledged
 * key also leaves it after `windowMs` of real time (storage that far behind: the unique `_id` still
 * keeps a late duplicate from being counted twice), whatever business time its request ran at.
 */
export class DedupWindow {
  private readonly entries = new Map<string, Ticket | number>();
  private acknowledged = 0;

  constructor(
    private readonly windowMs: number,
    private readonly now: RealTime = realTime,
  ) {}

  get(key: string): Ticket | number | undefined {
    return this.entries.get(key);
  }

  /** Reserves a free key for a request being checked. */
  hold(key: string, ticket: Ticket): void {
    this.entries.set(key, ticket);
  }

  /** The request's keys are free again (it will be checked again). */
  unhold(keys: readonly string[], ticket: Ticket): void {
    for (const key of keys) if (this.entries.get(key) === ticket) this.entries.delete(key);
  }

  /** The request was refused, or its publish failed: the keys are free again, and its waiters learn it. */
  release(keys: readonly string[], ticket: Ticket): void {
    this.unhold(keys, ticket);
    ticket.settle();
  }

  /** JetStream acknowledged the request's events: their keys stay until stored, or for the window. */
  acknowledge(keys: readonly string[], ticket: Ticket): void {
    const at = this.now();
    for (const key of keys) {
      if (this.entries.get(key) === ticket) {
        this.entries.set(key, at);
        this.acknowledged++;
      }
    }
    ticket.settle();
  }

  /** Keys now in MongoDB (and in the Bloom filter). */
  stored(keys: Iterable<string>): void {
    for (const key of keys) {
      if (typeof this.entries.get(key) === "number") {
        this.entries.delete(key);
        this.acknowledged--;
      }
    }
  }

  /** Drops acknowledged keys older than the window. */
  sweep(): void {
    const oldest = this.now() - this.windowMs;
    for (const [key, entry] of this.entries) {
      if (typeof entry === "number" && entry < oldest) {
        this.entries.delete(key);
        this.acknowledged--;
      }
    }
  }

  /** Acknowledged keys not yet stored. */
  get awaitingStorage(): number {
    return this.acknowledged;
  }
}
