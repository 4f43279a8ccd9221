import { z } from "zod";

const int = (fallback: number, min = 0) => z.coerce.number().int().min(min).default(fallback);

/** The usage service's own settings (the shared ones are parsed beside them by @billing/runtime). */
export const usageConfigSchema = z.object({
  /** Several platforms sharing one NATS: each has its own ingest subject and consumers. */
  DURABLE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,60}$/)
    .default("billing"),
  /** Keys acknowledged but not yet stored are refused as duplicates for at most this long. */
  DEDUP_WINDOW_MS: int(600_000, 1000),
  /** Events accepted but not yet acknowledged by JetStream; beyond it → 429. */
  INGEST_MAX_IN_FLIGHT_EVENTS: int(20_000, 100),
  /** Events acknowledged but not yet stored in MongoDB; beyond it → 429 (storage is behind). */
  INGEST_MAX_BACKLOG_EVENTS: int(2_000_000, 1000),
  /** Group commit: concurrent JetStream publishes; requests arriving meanwhile join the next one. */
  INGEST_MAX_FLUSHES: int(1, 1),
  /** Group commit: largest ingest message (capped by the server's max_payload). */
  INGEST_FLUSH_MAX_BYTES: int(900_000, 10_000),
  INGEST_PUBLISH_TIMEOUT_MS: int(5_000, 100),
  /** The Bloom filter of stored keys: capacity of each of its layers, and their false-positive rate. */
  BLOOM_CAPACITY: int(4_000_000, 1000),
  BLOOM_FP_RATE: z.coerce.number().positive().max(0.1).default(0.0001),
  /** Storage: most events applied to MongoDB at once. */
  STORE_UNIT_EVENTS: int(5_000, 100),
  /** Storage: a unit of few messages waits until this long after the previous one, for fuller writes. */
  STORE_LINGER_MS: int(250, 0),
  /** Storage: events of this process's own ingest messages kept in memory (as published, ≈ 400 B each, off the heap) until stored (else read back from the stream). */
  STORE_LOCAL_EVENTS: int(1_000_000, 0),
  /** Storage waits while ingest requests are in flight or keep arriving (none for STORE_YIELD_IDLE_MS) and fewer events than this await it (0: never waits). */
  STORE_YIELD_BACKLOG_EVENTS: int(1_000_000, 0),
  STORE_YIELD_IDLE_MS: int(100, 1),
  /** ... and no acknowledged event has awaited storage this long: under steady traffic requests never pause, and stored usage must not lag more than this. */
  STORE_YIELD_MAX_WAIT_MS: int(2_000, 0),
  /** Estimates read a period's stored events at most once per this long (0: every time). */
  ESTIMATE_USAGE_CACHE_MS: int(1_000, 0),
});

export type UsageConfig = z.infer<typeof usageConfigSchema>;
