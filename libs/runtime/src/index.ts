import type { Connection } from "mongoose";
import type { z } from "zod";
import { connectBus, ensureStream, Streams, type Bus } from "@billing/bus";
import { offsetClock, type Clock } from "@billing/clock";
import { backendServiceSchema, GRPC_PORTS, parseConfig, type BackendService } from "@billing/config";
import { startGrpcServer, type ServiceBinding } from "@billing/grpc";
import { createLogger, type Logger } from "@billing/logger";
import { connectMongo, initModels, MongoDeadLetterStore } from "@billing/mongo";
import { metricsRegistry, shutdownTracing, startMetricsServer } from "@billing/telemetry";

export { startPeriodic, type Periodic } from "./periodic";

/** The settings every backend service shares (its gRPC listener, database, bus, peers, clock offset). */
export type BackendConfig = z.infer<ReturnType<typeof backendServiceSchema>>;

/** A service's whole configuration: the shared settings and its own. */
export type ServiceConfig<Own extends z.ZodObject> = BackendConfig & z.infer<Own>;

/** Everything the composition root hands to a service's `wire`: parsed config, never the raw env. */
export interface ServiceContext<C extends BackendConfig = BackendConfig> {
  config: C;
  logger: Logger;
  clock: Clock;
  connection: Connection;
  bus: Bus;
}

export interface ServiceParts {
  bindings: ServiceBinding[];
  /** Stopped first on shutdown (consumers, relays, timers). */
  onStop?: () => Promise<void> | void;
}

/** What a service declares: its name, the zod schema of its own settings, and how it wires itself. */
export interface ServiceDefinition<Own extends z.ZodObject> {
  name: BackendService;
  config: Own;
  wire: (ctx: ServiceContext<ServiceConfig<Own>>) => Promise<ServiceParts>;
}

/** Declares a service (typed config for `wire`); `runService` runs it. */
export function defineService<Own extends z.ZodObject>(definition: ServiceDefinition<Own>): ServiceDefinition<Own> {
  return definition;
}

/** Parses the shared and the service's own settings together: every problem is reported at once. */
export function parseServiceConfig<Own extends z.ZodObject>(
  name: BackendService,
  own: Own,
  env: NodeJS.ProcessEnv = process.env,
): ServiceConfig<Own> {
  return parseConfig(backendServiceSchema(name, GRPC_PORTS[name]).extend(own.shape), env) as ServiceConfig<Own>;
}

/**
 * The life of every backend service: config → logger → its database → the bus (its own stream;
 * its consumers' defaults: the service's `dead_letters` store and the CONSUMER_* backoff) → `wire` → models → gRPC with health → `/metrics` (Prometheus, on METRICS_PORT); SIGTERM/SIGINT
 * stop it cleanly, in reverse, and the spans still buffered are exported (tracing on).
 */
export async function runService<Own extends z.ZodObject>(
  definition: ServiceDefinition<Own>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const { name } = definition;
  let config: ServiceConfig<Own>;
  try {
    config = parseServiceConfig(name, definition.config, env);
  } catch (err) {
    createLogger({ service: name, level: "info" }).fatal({ err }, `${name} service has an invalid configuration`);
    process.exit(1);
  }
  const logger = createLogger({ service: name, level: config.LOG_LEVEL });
  try {
    const connection = await connectMongo({ url: config.MONGO_URL, dbName: config.MONGO_DB, logger });
    // every consumer of the service parks into its own dead_letters and backs off alike (the bus's consumer defaults)
    const bus = await connectBus({
      url: config.NATS_URL,
      name,
      logger,
      consumerDefaults: {
        deadLetters: new MongoDeadLetterStore(connection),
        retryBaseMs: config.CONSUMER_RETRY_BASE_MS,
        retryMaxMs: config.CONSUMER_RETRY_MAX_MS,
        parkUnknownAfter: config.CONSUMER_PARK_UNKNOWN_AFTER,
      },
    });
    await ensureStream(bus.jsm, Streams[name], config.JETSTREAM_REPLICAS);
    const clock = offsetClock(config.CLOCK_OFFSET_MS);
    const parts = await definition.wire({ config, logger, clock, connection, bus });
    await initModels(connection);
    const server = await startGrpcServer({
      host: config.GRPC_HOST,
      port: config.GRPC_PORT,
      logger,
      bindings: parts.bindings,
    });
    const metricsHost = config.METRICS_HOST ?? config.GRPC_HOST;
    metricsRegistry.setDefaultLabels({ service: name });
    const metrics = await startMetricsServer({ host: metricsHost, port: config.METRICS_PORT });
    logger.info(
      {
        grpc: `${config.GRPC_HOST}:${server.port}`,
        metrics: `http://${metricsHost}:${metrics.port}/metrics`,
        db: config.MONGO_DB,
      },
      `${name} service ready`,
    );

    let stopping = false;
    const stop = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, "shutting down");
      await parts.onStop?.();
      await server.shutdown();
      await bus.close();
      await connection.close();
      await metrics.close();
      await shutdownTracing();
      logger.info("stopped");
      process.exit(0);
    };
    process.once("SIGTERM", () => void stop("SIGTERM"));
    process.once("SIGINT", () => void stop("SIGINT"));
  } catch (err) {
    logger.fatal({ err }, `${name} service failed to start`);
    process.exit(1);
  }
}
