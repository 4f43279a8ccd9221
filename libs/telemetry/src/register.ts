/**
 * Tracing's preload: `import "@billing/telemetry/register";` as the FIRST import of a main.ts, so
 * the instrumentations hook http, express, gRPC and MongoDB before anything loads them. With no
 * OTLP endpoint configured (or `OTEL_SDK_DISABLED=true`, or `OTEL_TRACES_EXPORTER=none`) it loads
 * nothing more: the SDK is never required and tracing costs nothing.
 */
import { tracingConfigured } from "./settings";

if (tracingConfigured(process.env)) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require("./sdk") as typeof import("./sdk")).startTracing(process.env);
}
