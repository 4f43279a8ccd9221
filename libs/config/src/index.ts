import { z } from "zod";

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** Parses the environment with a zod schema and reports every problem at once. */
export function parseConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  throw new ConfigError(result.error.issues.map((i) => `${i.path.join(".") || "(env)"}: ${i.message}`));
}

export const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);
export const logLevel = z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info");
export const url = (fallback: string) => z.string().url().default(fallback);
/** A gRPC target: host:port, or a resolver URI such as dns:///billing-catalog:50052 (spreads calls over pods). */
export const hostPort = (fallback: string) =>
  z
    .string()
    .regex(/^([a-z][a-z0-9+.-]*:\/{2,3})?[^:\s/]+:\d{1,5}$/, "expected host:port or dns:///host:port")
    .default(fallback);

/** Where each backend service answers gRPC: `<SERVICE>_GRPC_ADDR`, defaulting to 127.0.0.1 and its default port. */
export function peerAddressSchema() {
  const shape = {} as Record<`${Uppercase<BackendService>}_GRPC_ADDR`, ReturnType<typeof hostPort>>;
  for (const [service, grpcPort] of Object.entries(GRPC_PORTS)) {
    shape[`${service.toUpperCase() as Uppercase<BackendService>}_GRPC_ADDR`] = hostPort(`127.0.0.1:${grpcPort}`);
  }
  return z.object(shape);
}

/** The address of one peer service in a config parsed with peerAddressSchema. */
export function peerAddress(config: Record<string, unknown>, service: BackendService): string {
  return config[`${service.toUpperCase()}_GRPC_ADDR`] as string;
}

/** The settings every backend service shares: its gRPC listener, its metrics listener, its own database, the bus, its peers' addresses. */
export function backendServiceSchema(
  service: string,
  grpcPort: number,
  metricsPort: number = METRICS_PORTS[service as BackendService] ?? 0,
) {
  return peerAddressSchema().extend({
    GRPC_HOST: z.string().default("127.0.0.1"),
    GRPC_PORT: port(grpcPort),
    /** Where `/metrics` (Prometheus) is served; unset, on GRPC_HOST. */
    METRICS_HOST: z.string().optional(),
    /** 0: a free port, logged at start. */
    METRICS_PORT: port(metricsPort),
    MONGO_URL: url("mongodb://127.0.0.1:27017"),
    MONGO_DB: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,63}$/, "letters, digits, _ and - only")
      .default(`billing_${service}`),
    NATS_URL: z.string().default("nats://127.0.0.1:4222"),
    JETSTREAM_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
    LOG_LEVEL: logLevel,
    CLOCK_OFFSET_MS: z.coerce.number().int().default(0),
    /** Every durable consumer's backoff: a failing message's first redelivery after about this long, doubling each time (the base). */
    CONSUMER_RETRY_BASE_MS: z.coerce.number().int().min(1).default(500),
    /** … up to this long between two deliveries (5 min): a message failing for a transient reason is redelivered at this pace for as long as it takes. */
    CONSUMER_RETRY_MAX_MS: z.coerce.number().int().min(1).default(300_000),
    /** Deliveries after which a message failing for an unknown reason (not transient, not poison) is parked in dead_letters (with the backoff, hours). */
    CONSUMER_PARK_UNKNOWN_AFTER: z.coerce.number().int().min(1).default(50),
  });
}

/** Default gRPC ports, one per backend service. */
export const GRPC_PORTS = {
  customer: 50051,
  catalog: 50052,
  usage: 50053,
  invoicing: 50054,
  wallet: 50055,
  payment: 50056,
} as const;
export type BackendService = keyof typeof GRPC_PORTS;

/** Default ports of each backend service's `/metrics` listener (`METRICS_PORT`; the gateway's is GATEWAY_METRICS_PORT). */
export const METRICS_PORTS: Record<BackendService, number> = {
  customer: 9451,
  catalog: 9452,
  usage: 9453,
  invoicing: 9454,
  wallet: 9455,
  payment: 9456,
};

/** Default port of the gateway's `/metrics` listener (its `METRICS_PORT`), apart from its public HTTP port. */
export const GATEWAY_METRICS_PORT = 9450;
