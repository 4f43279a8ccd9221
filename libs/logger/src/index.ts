import pino from "pino";
import { traceLogFields, tracingEnabled } from "@billing/telemetry";

export type Logger = pino.Logger;

/**
 * While tracing is on, every line gets the active span's `trace_id` and `span_id`, and the
 * context's `request_id` when the logger was not bound to one already (a consumer handling an
 * event that a request caused, a use case logging on the service's logger).
 */
const traceMixin: NonNullable<pino.LoggerOptions["mixin"]> = (_merge, _level, logger) =>
  traceLogFields(!(logger as unknown as Record<symbol, string>)[pino.symbols.chindingsSym]?.includes('"request_id":'));

/** JSON logs to stdout with the service's name on every line (and trace ids while tracing is on). */
export function createLogger(options: { service: string; level?: string }): Logger {
  return pino({
    level: options.level ?? "info",
    base: { service: options.service },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    ...(tracingEnabled() ? { mixin: traceMixin } : {}),
  });
}

/** A logger that writes nothing, for tests. */
export const silentLogger: Logger = pino({ level: "silent" });
