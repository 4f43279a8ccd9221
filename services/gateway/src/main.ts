// first: tracing (when configured) must hook http, express and gRPC before anything loads them
import "@billing/telemetry/register";
import { parseConfig } from "@billing/config";
import { createLogger } from "@billing/logger";
import { sampleIngestion, shutdownTracing, startMetricsServer } from "@billing/telemetry";
import { createServer } from "node:http";
import { createGateway } from "./app";
import { createClients } from "./clients";
import { gatewayConfigSchema } from "./config";
import { createMetrics } from "./middleware/metrics";

const config = parseConfig(gatewayConfigSchema);
const logger = createLogger({ service: "gateway", level: config.LOG_LEVEL });
const clients = createClients(config);
const metrics = createMetrics();
const server = createServer(createGateway(config, clients, logger, metrics));
// tracing on: ingestion requests are traced at TRACE_INGEST_RATIO, the rest always
sampleIngestion(server);

// a listen failure (a port already taken) must end the process with an error, not silently
server.once("error", (err) => {
  logger.fatal({ err, port: config.PORT }, "gateway could not listen");
  process.exit(1);
});
// /metrics on its own listener (METRICS_HOST:METRICS_PORT), never on the public port
const metricsServer = startMetricsServer({
  host: config.METRICS_HOST,
  port: config.METRICS_PORT,
  registry: metrics.registry,
});
metricsServer.then(
  (m) =>
    server.listen(config.PORT, config.HOST, () => {
      logger.info(
        { port: config.PORT, metrics: `http://${config.METRICS_HOST}:${m.port}/metrics` },
        `gateway listening on http://${config.HOST}:${config.PORT}/api/v1`,
      );
    }),
  (err: Error) => {
    logger.fatal({ err, port: config.METRICS_PORT }, "gateway could not serve its metrics");
    process.exit(1);
  },
);
server.keepAliveTimeout = 65_000;

let stopping = false;
function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, "shutting down");
  server.close(() => {
    clients.close();
    void metricsServer.then((m) => m.close());
    logger.info("stopped");
    // the spans still buffered are exported first (tracing on)
    void shutdownTracing().finally(() => process.exit(0));
  });
  setTimeout(() => process.exit(0), 10_000).unref();
  server.closeIdleConnections();
}
process.once("SIGTERM", () => stop("SIGTERM"));
process.once("SIGINT", () => stop("SIGINT"));
