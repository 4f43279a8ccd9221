import { Router } from "express";
import { checkHealth } from "@billing/grpc";

/** GET /health: liveness of the gateway and readiness of every service behind it (no auth). */
export function healthRouter(addresses: Record<string, string>): Router {
  const router = Router();
  router.get("/health", async (_req, res) => {
    const names = Object.keys(addresses);
    const results = await Promise.all(names.map((name) => checkHealth(addresses[name]!, 1000)));
    const services = Object.fromEntries(names.map((name, i) => [name, results[i] ? "serving" : "unavailable"]));
    const ready = results.every(Boolean);
    res.status(ready ? 200 : 503).json({ status: ready ? "ok" : "degraded", services });
  });
  return router;
}
