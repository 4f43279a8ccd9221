export * from "./metrics";
export * from "./tracing";
export { tracingConfigured } from "./settings";
