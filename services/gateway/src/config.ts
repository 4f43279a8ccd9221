import { GATEWAY_METRICS_PORT, logLevel, peerAddressSchema, port } from "@billing/config";
import proxyaddr from "proxy-addr";
import { z } from "zod";

export const gatewayConfigSchema = peerAddressSchema().extend({
  PORT: port(3000),
  HOST: z.string().default("0.0.0.0"),
  /** Where `/metrics` (Prometheus) is served, apart from the public port: loopback unless told (a scraper on another host needs 0.0.0.0). */
  METRICS_HOST: z.string().default("127.0.0.1"),
  /** 0: a free port, logged at start. */
  METRICS_PORT: port(GATEWAY_METRICS_PORT),
  LOG_LEVEL: logLevel,
  BODY_LIMIT: z.string().default("1mb"),
  API_KEY_CACHE_TTL_MS: z.coerce.number().int().min(0).default(30_000),
  /** How long a key the customer service refused is refused again without asking it; 0 = ask every time. */
  API_KEY_MISS_TTL_MS: z.coerce.number().int().min(0).default(5_000),
  /** Failed authentications a client address may make within AUTH_FAILURE_WINDOW_MS before it is answered 429; 0 = no limit. */
  AUTH_FAILURE_LIMIT: z.coerce.number().int().min(0).default(20),
  AUTH_FAILURE_WINDOW_MS: z.coerce.number().int().min(1000).default(60_000),
  /**
   * Which proxies' `X-Forwarded-For` names the client (whose failed authentications are counted):
   * empty = none (the socket's address), a number of hops, or a comma-separated list of addresses,
   * CIDR ranges and `loopback`, `linklocal`, `uniquelocal` (express's `trust proxy`, proxy-addr).
   */
  TRUST_PROXY: z
    .string()
    .default("")
    .refine((value) => {
      if (/^\s*\d*\s*$/.test(value)) return true;
      try {
        proxyaddr.compile(
          value
            .split(",")
            .map((part) => part.trim())
            .filter(Boolean),
        );
        return true;
      } catch {
        return false;
      }
    }, "expected a number of hops or a comma-separated list of addresses, CIDR ranges, loopback, linklocal or uniquelocal"),
  GRPC_DEADLINE_MS: z.coerce.number().int().positive().default(5_000),
  /** POST /events and /events/batch: IngestHttp calls in flight; requests arriving meanwhile share the next call. */
  INGEST_CALLS_IN_FLIGHT: z.coerce.number().int().min(1).default(2),
  /**
   * Requests per second per organization (a token bucket in this process) on every /api/v1 route
   * but POST /events and /events/batch, which have the usage service's backpressure; 0 = off.
   */
  RATE_LIMIT_PER_S: z.coerce.number().min(0).default(100),
  /** The bucket's size: requests an organization may send at once after a quiet spell; 0 = off. */
  RATE_LIMIT_BURST: z.coerce.number().int().min(0).default(200),
  /** The HMAC secret of the documents' signed links (shared with the invoicing service, which signs them); unset → every link refused. */
  DOCUMENT_LINK_SECRET: z.string().min(16).optional(),
});

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
