import pino from "pino";

export type Logger = pino.Logger;

/** JSON logs to stdout with the service's name on every line. */
export function createLogger(options: { service: string; level?: string }): Logger {
  return pino({
    level: options.level ?? "info",
    base: { service: options.service },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  });
}

/** A logger that writes nothing, for tests. */
export const silentLogger: Logger = pino({ level: "silent" });
