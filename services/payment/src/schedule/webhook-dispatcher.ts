import type { Logger } from "@billing/logger";
import { webhookDeliveries } from "../metrics";
import { retryDelayMs, responseExcerpt, type WebhookDelivery } from "../domain/webhook-delivery";
import type { WebhookEndpoint } from "../domain/webhook-endpoint";
import { signatureHeaders, type SigningKeys } from "../domain/webhook-signing";
import type { WebhookPoster } from "../peers/webhook-http";
import type { AttemptOutcome, WebhookRepository } from "../persistence/webhook-repository";

export interface DispatcherSettings {
  /** this process's name in leases */
  owner: string;
  /** how long a delivery this process holds stays its own past its due time (system time) */
  leaseMs: number;
  /** requests in flight to one endpoint at most (a slow endpoint holds no more than these) */
  endpointConcurrency: number;
  /** requests in flight in all */
  maxInFlight: number;
  /** deliveries held in memory per endpoint; beyond, new ones wait in the database for the sweeper */
  maxQueuedPerEndpoint: number;
  /** shortens the retry schedule (tests) */
  retryScale: number;
}

export interface DispatcherDeps {
  repository: WebhookRepository;
  poster: WebhookPoster;
  /** the endpoint as it is now (null once deleted) */
  endpoint(id: string): Promise<WebhookEndpoint | null>;
  signingKeys(endpoint: WebhookEndpoint): Promise<SigningKeys>;
  logger: Logger;
}

const LEASE_MARGIN_MS = 250;

/** One endpoint's deliveries in memory: per object, in event order; an object's next one waits for the one before. */
class Lane {
  readonly byKey = new Map<string, WebhookDelivery[]>();
  readonly ready: string[] = [];
  readonly blocked = new Set<string>();
  inFlight = 0;
  size = 0;
  /** some deliveries overflowed to the database: new ones follow them there until the sweeper has caught up (event order) */
  spilled = false;
}

/**
 * Sends deliveries: fresh ones straight from memory (the fan-out stored them leased to this
 * process), retries on timers, and whatever nobody holds (a crashed replica's, overflowed ones)
 * through the sweeper. Every outcome is written back (batched); a crash loses at most the record
 * of an attempt, so the delivery is sent again, with the same unique key (at least once).
 */
export class WebhookDispatcher {
  private readonly lanes = new Map<string, Lane>();
  /** the deliveries held, with when their lease runs out (system time, ms; a little earlier than stored) */
  private readonly held = new Map<string, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private inFlight = 0;
  private readonly waitingLanes: string[] = [];
  private outcomes: AttemptOutcome[] = [];
  private flushTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private stopped = false;
  private readonly sending = new Set<Promise<void>>();

  constructor(
    private readonly deps: DispatcherDeps,
    readonly settings: DispatcherSettings,
  ) {}

  /** Whether a new delivery to this endpoint is to be held (and sent) by this process now. */
  accepts(endpointId: string): boolean {
    const lane = this.lanes.get(endpointId);
    if (!lane) return !this.stopped;
    if (lane.spilled || lane.size >= this.settings.maxQueuedPerEndpoint) {
      lane.spilled = true;
      return false;
    }
    return !this.stopped;
  }

  /** Whether this process holds a delivery now. */
  holds(id: string): boolean {
    return this.held.has(id);
  }

  /** Deliveries stored leased to this process. */
  enqueue(deliveries: readonly WebhookDelivery[]): void {
    for (const d of deliveries) {
      if (this.held.has(d.id) || this.stopped) continue;
      this.held.set(d.id, Date.now() + this.settings.leaseMs - LEASE_MARGIN_MS);
      let lane = this.lanes.get(d.endpoint_id);
      if (!lane) this.lanes.set(d.endpoint_id, (lane = new Lane()));
      lane.size++;
      const list = lane.byKey.get(d.order_key);
      if (!list) {
        lane.byKey.set(d.order_key, [d]);
        if (!lane.blocked.has(d.order_key)) lane.ready.push(d.order_key);
      } else {
        // in event order; never ahead of one being sent
        let at = list.length;
        while (at > (lane.blocked.has(d.order_key) ? 1 : 0) && list[at - 1]!.seq > d.seq) at--;
        list.splice(at, 0, d);
      }
      this.pump(d.endpoint_id);
    }
  }

  /**
   * The deliveries held whose lease runs out before `before` (a slow endpoint's queue can hold
   * some longer than a lease): renewed by the sweeper, so no other replica takes them meanwhile.
   */
  expiringLeases(before: number): string[] {
    return [...this.held].filter(([, until]) => until < before).map(([id]) => id);
  }

  leaseRenewed(ids: readonly string[], until: number): void {
    for (const id of ids) if (this.held.has(id)) this.held.set(id, until - LEASE_MARGIN_MS);
  }

  /** After a sweep: lanes that overflowed and have room again take new deliveries in memory again. */
  caughtUp(endpointIdsStillWaiting: ReadonlySet<string>): void {
    for (const [id, lane] of this.lanes) {
      if (lane.spilled && !endpointIdsStillWaiting.has(id) && lane.size < this.settings.maxQueuedPerEndpoint / 2)
        lane.spilled = false;
    }
  }

  room(endpointId: string): number {
    return this.settings.maxQueuedPerEndpoint - (this.lanes.get(endpointId)?.size ?? 0);
  }

  private pump(endpointId: string): void {
    const lane = this.lanes.get(endpointId);
    if (!lane) return;
    while (lane.ready.length > 0 && lane.inFlight < this.settings.endpointConcurrency) {
      if (this.inFlight >= this.settings.maxInFlight) {
        if (!this.waitingLanes.includes(endpointId)) this.waitingLanes.push(endpointId);
        return;
      }
      const key = lane.ready.shift()!;
      const delivery = lane.byKey.get(key)?.[0];
      if (!delivery) continue;
      lane.blocked.add(key);
      lane.inFlight++;
      this.inFlight++;
      const p = this.attempt(delivery)
        .catch((err) => this.deps.logger.error({ err, webhook_id: delivery.id }, "webhook attempt failed unexpectedly"))
        .finally(() => {
          this.sending.delete(p);
          lane.inFlight--;
          this.inFlight--;
          this.pump(endpointId);
          while (this.inFlight < this.settings.maxInFlight && this.waitingLanes.length > 0)
            this.pump(this.waitingLanes.shift()!);
        });
      this.sending.add(p);
    }
  }

  private async attempt(d: WebhookDelivery): Promise<void> {
    const endpoint = await this.deps.endpoint(d.endpoint_id);
    const at = new Date();
    if (!endpoint)
      return this.settle(d, { status: "failed", http_status: null, response: "the webhook endpoint was deleted", at });
    let result: { status: number | null; body: string };
    try {
      const headers = await signatureHeaders(
        endpoint.signature_algo,
        d.payload,
        d.id,
        await this.deps.signingKeys(endpoint),
        at,
      );
      result = await this.deps.poster.post(endpoint.webhook_url, d.payload, headers, endpoint.id);
    } catch (err) {
      result = { status: null, body: err instanceof Error ? err.message : String(err) };
    }
    const delivered = result.status !== null && result.status >= 200 && result.status < 300;
    const response = responseExcerpt(result.body);
    if (delivered) return this.settle(d, { status: "succeeded", http_status: result.status, response, at });
    const retries = d.retries + 1;
    const wait = retryDelayMs(retries, this.settings.retryScale);
    if (wait === null) return this.settle(d, { status: "failed", http_status: result.status, response, at, retries });
    webhookDeliveries.inc({ outcome: "retried" });
    const next = new Date(at.getTime() + wait);
    d.retries = retries;
    this.held.set(d.id, next.getTime() + this.settings.leaseMs - LEASE_MARGIN_MS);
    this.record({
      id: d.id,
      status: "pending",
      retries,
      http_status: result.status,
      response,
      at,
      next_attempt_at: next,
      lease_until: new Date(next.getTime() + this.settings.leaseMs),
    });
    if (this.stopped) return this.drop(d);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      const lane = this.lanes.get(d.endpoint_id);
      if (!lane || this.stopped) return;
      lane.blocked.delete(d.order_key);
      lane.ready.push(d.order_key);
      this.pump(d.endpoint_id);
    }, wait);
    timer.unref();
    this.timers.add(timer);
  }

  /** The delivery is done with (succeeded or failed for good): the object's next one may go. */
  private settle(
    d: WebhookDelivery,
    o: { status: "succeeded" | "failed"; http_status: number | null; response: string; at: Date; retries?: number },
  ) {
    webhookDeliveries.inc({ outcome: o.status });
    this.record({
      id: d.id,
      status: o.status,
      retries: o.retries ?? d.retries + 1,
      http_status: o.http_status,
      response: o.response,
      at: o.at,
      next_attempt_at: null,
      lease_until: null,
    });
    this.drop(d);
  }

  private drop(d: WebhookDelivery) {
    const lane = this.lanes.get(d.endpoint_id);
    this.held.delete(d.id);
    if (!lane) return;
    const list = lane.byKey.get(d.order_key);
    if (list?.[0]?.id === d.id) list.shift();
    lane.size--;
    lane.blocked.delete(d.order_key);
    if (list && list.length > 0) {
      if (!this.stopped) lane.ready.push(d.order_key);
    } else lane.byKey.delete(d.order_key);
    if (lane.size === 0 && lane.inFlight <= 1 && !lane.spilled) this.lanes.delete(d.endpoint_id);
  }

  private record(outcome: AttemptOutcome) {
    this.outcomes.push(outcome);
    if (this.outcomes.length >= 500) void this.flush();
    else if (!this.flushTimer) {
      this.flushTimer = setTimeout(() => void this.flush(), 20);
    }
  }

  /** Writes the attempts' outcomes recorded so far (one bulk write; kept for the next flush if it fails). */
  flush(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    this.flushing = this.flushing.then(async () => {
      const batch = this.outcomes;
      this.outcomes = [];
      if (batch.length === 0) return;
      try {
        await this.deps.repository.recordOutcomes(batch);
      } catch (err) {
        this.deps.logger.warn({ err, outcomes: batch.length }, "webhook outcomes not written; will try again");
        this.outcomes = [...batch, ...this.outcomes];
        if (!this.stopped && !this.flushTimer) this.flushTimer = setTimeout(() => void this.flush(), 500);
      }
    });
    return this.flushing;
  }

  /** Stops taking and sending: attempts in flight finish and their outcomes are written; what is left stays pending, to be sent when its lease passes. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await Promise.allSettled([...this.sending]);
    await this.flush();
  }
}
