import type { Connection } from "mongoose";
import { connectBus, ensureStream, Streams, type Bus } from "@billing/bus";
import { offsetClock, type Clock } from "@billing/clock";
import { backendServiceSchema, GRPC_PORTS, parseConfig, type BackendService } from "@billing/config";
import { startGrpcServer, type ServiceBinding } from "@billing/grpc";
import { createLogger, type Logger } from "@billing/logger";
import { connectMongo, initModels } from "@billing/mongo";

export type BackendConfig = ReturnType<typeof parseConfig<ReturnType<typeof backendServiceSchema>>>;

export interface ServiceContext {
  config: BackendConfig;
  env: NodeJS.ProcessEnv;
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

/**
 * The life of every backend service: config → logger → its database → the bus
 * (its own stream) → models → gRPC with health; SIGTERM/SIGINT stop it cleanly.
 */
export async function runBackendService(
  name: BackendService,
  setup: (ctx: ServiceContext) => Promise<ServiceParts>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const config = parseConfig(backendServiceSchema(name, GRPC_PORTS[name]), env);
  const logger = createLogger({ service: name, level: config.LOG_LEVEL });
  try {
    const connection = await connectMongo({ url: config.MONGO_URL, dbName: config.MONGO_DB, logger });
    const bus = await connectBus({ url: config.NATS_URL, name, logger });
    await ensureStream(bus.jsm, Streams[name], config.JETSTREAM_REPLICAS);
    const clock = offsetClock(config.CLOCK_OFFSET_MS);
    const parts = await setup({ config, env, logger, clock, connection, bus });
    await initModels(connection);
    const server = await startGrpcServer({ host: config.GRPC_HOST, port: config.GRPC_PORT, logger, bindings: parts.bindings });
    logger.info({ grpc: `${config.GRPC_HOST}:${server.port}`, db: config.MONGO_DB }, `${name} service ready`);

    let stopping = false;
    const stop = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, "shutting down");
      await parts.onStop?.();
      await server.shutdown();
      await bus.close();
      await connection.close();
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
