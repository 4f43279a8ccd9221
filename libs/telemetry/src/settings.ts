/** Whether the environment asks for traces: an OTLP endpoint, and the SDK not disabled. */
export function tracingConfigured(env: NodeJS.ProcessEnv): boolean {
  const endpoint = (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT || "").trim();
  return (
    endpoint !== "" &&
    env.OTEL_SDK_DISABLED?.trim().toLowerCase() !== "true" &&
    env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() !== "none"
  );
}
