import type { ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import { collectDefaultMetrics, Counter, Histogram, Registry } from "prom-client";

/** Prometheus metrics: request count and latency by method, route and status. */
export interface Metrics {
  /** Counts and times one request when its response ends; `routeOf` names its route pattern then. */
  track(method: string, res: ServerResponse, routeOf: () => string): void;
  /** Express: `track` with the matched route's pattern. */
  middleware: RequestHandler;
  /** Served on the gateway's metrics port (METRICS_PORT), not on its public one. */
  registry: Registry;
}

/** The gateway's one set of metrics, shared by the express app and the events fast path. */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ["method", "route", "status"] as const;
  const requests = new Counter({
    name: "http_requests_total",
    help: "HTTP requests",
    labelNames,
    registers: [registry],
  });
  const latency = new Histogram({
    name: "http_request_duration_seconds",
    help: "HTTP request latency",
    labelNames,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });

  const track = (method: string, res: ServerResponse, routeOf: () => string) => {
    const end = latency.startTimer();
    res.on("finish", () => {
      const labels = { method, route: routeOf(), status: String(res.statusCode) };
      requests.inc(labels);
      end(labels);
    });
  };

  const middleware: RequestHandler = (req, res, next) => {
    // the route pattern, never the raw path: ids must not explode the label set
    track(req.method, res, () => (req.route?.path ? `${req.baseUrl}${String(req.route.path)}` : "unmatched"));
    next();
  };

  return { middleware, track, registry };
}
