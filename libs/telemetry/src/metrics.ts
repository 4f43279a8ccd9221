import { createServer, type Server } from "node:http";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/**
 * The process's Prometheus metrics (prom-client): one registry, served on `/metrics` by
 * `startMetricsServer` (backend services, `METRICS_PORT`). Metrics are declared where they are
 * counted, through the get-or-create helpers below: a process that wires a library twice (tests
 * wire several services in one process) shares one metric instead of failing on a duplicate name.
 */
export const metricsRegistry = new Registry();

type Labels<L extends string> = readonly L[];

export function counter<L extends string = never>(name: string, help: string, labelNames: Labels<L> = []): Counter<L> {
  return (
    (metricsRegistry.getSingleMetric(name) as Counter<L> | undefined) ??
    new Counter<L>({ name, help, labelNames: [...labelNames], registers: [metricsRegistry] })
  );
}

export function gauge<L extends string = never>(name: string, help: string, labelNames: Labels<L> = []): Gauge<L> {
  return (
    (metricsRegistry.getSingleMetric(name) as Gauge<L> | undefined) ??
    new Gauge<L>({ name, help, labelNames: [...labelNames], registers: [metricsRegistry] })
  );
}

/** Latency buckets in seconds, 1 ms to 10 s (the gateway's, and longer for billing runs). */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function histogram<L extends string = never>(
  name: string,
  help: string,
  labelNames: Labels<L> = [],
  buckets = LATENCY_BUCKETS,
): Histogram<L> {
  return (
    (metricsRegistry.getSingleMetric(name) as Histogram<L> | undefined) ??
    new Histogram<L>({ name, help, labelNames: [...labelNames], buckets, registers: [metricsRegistry] })
  );
}

let defaultsCollected = false;

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * Serves a registry (the process's `metricsRegistry` unless given: the gateway has its own) on
 * `GET /metrics` (Prometheus text format), with the process metrics (CPU, memory, event-loop lag,
 * GC) in `metricsRegistry`; anything else is 404. Port 0 picks a free one (answered in `port`).
 */
export async function startMetricsServer(options: {
  host: string;
  port: number;
  registry?: Registry;
}): Promise<MetricsServer> {
  const registry = options.registry ?? metricsRegistry;
  if (registry === metricsRegistry && !defaultsCollected) {
    collectDefaultMetrics({ register: metricsRegistry });
    defaultsCollected = true;
  }
  const server: Server = createServer((req, res) => {
    if (req.method !== "GET" || (req.url ?? "").split("?")[0] !== "/metrics") {
      res.writeHead(404).end();
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { "Content-Type": registry.contentType }).end(text),
      (err: Error) => res.writeHead(500).end(String(err.message)),
    );
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  return {
    port: typeof address === "object" && address ? address.port : options.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
