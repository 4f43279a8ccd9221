import {
  connect,
  nanos,
  RetentionPolicy,
  StorageType,
  type JetStreamClient,
  type JetStreamManager,
  type NatsConnection,
} from "nats";
import type { Logger } from "@billing/logger";
import type { DeadLetterStore } from "./dead-letters";
import type { StreamSpec } from "./subjects";

/**
 * What every consumer on a bus uses unless its own options say otherwise: set once by the
 * runtime (`runService`) from the service's settings and database, so that every consumer of
 * every service parks into its service's `dead_letters` and backs off alike.
 */
export interface ConsumerDefaults {
  /** Where parked messages are written; absent, a parked message is terminated and only logged. */
  deadLetters?: DeadLetterStore;
  /** The first redelivery's delay, the backoff's base (CONSUMER_RETRY_BASE_MS; 500 ms). */
  retryBaseMs?: number;
  /** The longest delay between deliveries (CONSUMER_RETRY_MAX_MS; 5 min). */
  retryMaxMs?: number;
  /** Deliveries after which a message failing for an unknown reason is parked (CONSUMER_PARK_UNKNOWN_AFTER; 50). */
  parkUnknownAfter?: number;
}

export interface Bus {
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
  /** The defaults of the consumers run on this bus (dead-letter store, backoff, parking). */
  consumerDefaults?: ConsumerDefaults;
  close(): Promise<void>;
}

/** Connects to NATS and JetStream; reconnects forever once connected. */
export async function connectBus(options: {
  url: string;
  name: string;
  logger?: Logger;
  consumerDefaults?: ConsumerDefaults;
}): Promise<Bus> {
  const nc = await connect({
    servers: options.url.split(","),
    name: options.name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
  });
  if (options.logger) {
    const logger = options.logger;
    void (async () => {
      for await (const s of nc.status()) logger.info({ nats: s.type }, "nats status");
    })();
  }
  const js = nc.jetstream();
  const jsm = await nc.jetstreamManager();
  return {
    nc,
    js,
    jsm,
    ...(options.consumerDefaults && { consumerDefaults: options.consumerDefaults }),
    close: async () => {
      if (!nc.isClosed()) await nc.drain();
    },
  };
}

export interface StreamLimits {
  /** How long a message id is remembered for deduplication (10 minutes). */
  duplicateWindowMs?: number;
  /** How long a message is kept; 0 keeps it until it is deleted (7 days). */
  maxAgeMs?: number;
}

/** Creates the stream with file storage, or updates its subjects; idempotent. */
export async function ensureStream(
  jsm: JetStreamManager,
  spec: StreamSpec,
  replicas = 1,
  limits: StreamLimits = {},
): Promise<void> {
  const maxAgeMs = limits.maxAgeMs ?? 7 * 24 * 60 * 60 * 1000;
  const config = {
    name: spec.name,
    subjects: [...spec.subjects],
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    num_replicas: replicas,
    duplicate_window: nanos(limits.duplicateWindowMs ?? 10 * 60 * 1000),
    max_age: maxAgeMs === 0 ? 0 : nanos(maxAgeMs),
  };
  try {
    await jsm.streams.info(spec.name);
    await jsm.streams.update(spec.name, { subjects: config.subjects, duplicate_window: config.duplicate_window });
  } catch (err) {
    if (!isNotFound(err)) throw err;
    try {
      await jsm.streams.add(config);
    } catch (addErr) {
      // another process created it in between
      if (!String((addErr as Error).message).includes("already in use")) throw addErr;
    }
  }
}

function isNotFound(err: unknown): boolean {
  return /not found/i.test(String((err as Error)?.message));
}
