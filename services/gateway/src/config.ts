import { logLevel, peerAddressSchema, port } from "@billing/config";
import { z } from "zod";

export const gatewayConfigSchema = peerAddressSchema().extend({
  PORT: port(3000),
  HOST: z.string().default("0.0.0.0"),
  LOG_LEVEL: logLevel,
  BODY_LIMIT: z.string().default("1mb"),
  API_KEY_CACHE_TTL_MS: z.coerce.number().int().min(0).default(30_000),
  GRPC_DEADLINE_MS: z.coerce.number().int().positive().default(5_000),
  /** POST /events and /events/batch: IngestHttp calls in flight; requests arriving meanwhile share the next call. */
  INGEST_CALLS_IN_FLIGHT: z.coerce.number().int().min(1).default(2),
});

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
