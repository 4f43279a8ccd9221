import { z } from "zod";

/** The payment service's own settings (the shared ones, peers' addresses included, are parsed beside them by @billing/runtime). */
export const paymentConfigSchema = z.object({
  /** Several platforms sharing one NATS: each has its own durable consumers. */
  DURABLE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,60}$/)
    .default("billing"),
  /** How often (real time) payments a crash interrupted are looked for. */
  PAYMENT_SWEEP_MS: z.coerce.number().int().min(10).default(2000),
  /** How long (real time) a refund the provider left pending waits before the provider is asked about it again. */
  PAYMENT_REFUND_RECHECK_MS: z.coerce.number().int().min(10).default(60_000),
  /** The API's public base URL (the sandbox provider's confirmation links point at it). */
  PUBLIC_URL: z.string().url().default("http://127.0.0.1:3000"),
  /** Where a customer returns after a provider's action. */
  PAYMENT_RETURN_URL: z.string().url().default("http://127.0.0.1:3000/payment_done"),
  /** Private and loopback webhook URLs are refused unless this is 1 (tests, local development). */
  WEBHOOK_ALLOW_PRIVATE: z
    .enum(["0", "1"])
    .default("0")
    .transform((v) => v === "1"),
  /** One attempt's whole time (connect, send, answer). */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  /** Requests in flight to one endpoint, and in all. */
  WEBHOOK_ENDPOINT_CONCURRENCY: z.coerce.number().int().min(1).default(16),
  WEBHOOK_MAX_IN_FLIGHT: z.coerce.number().int().min(1).default(512),
  /** Deliveries held in memory per endpoint (beyond, they wait in the database). */
  WEBHOOK_QUEUE_PER_ENDPOINT: z.coerce.number().int().min(10).default(5000),
  /** How long a delivery held by a replica stays its own past its due time (system time); a crashed replica's are sent by another after it. */
  WEBHOOK_LEASE_MS: z.coerce.number().int().min(100).default(30_000),
  /** How often deliveries nobody holds are looked for. */
  WEBHOOK_SWEEP_MS: z.coerce.number().int().min(10).default(1000),
  /** A `jwt` webhook signature's lifetime: its `exp` is its `iat` (the attempt's time) plus this; each attempt is signed anew. */
  WEBHOOK_JWT_TTL_S: z.coerce.number().int().min(30).max(86_400).default(600),
  /** How long a replica keeps an organization's RSA key pair once read: a rotation (`npm run webhook:rotate-key`) reaches its signatures within it. */
  WEBHOOK_KEY_CACHE_MS: z.coerce.number().int().min(0).default(60_000),
  /** Multiplies the retry schedule (5 s … 10 h, about 38.6 h in all); tests shorten it. */
  WEBHOOK_RETRY_SCALE: z.coerce.number().positive().max(1).default(1),
});

export type PaymentConfig = z.infer<typeof paymentConfigSchema>;
