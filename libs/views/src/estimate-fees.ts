/**
 * `{"fees": [Fee]}`: the usage service already builds Lago's Fee objects as JSON text; the body
 * is assembled around it rather than parsed and serialized again (this endpoint is latency-bound).
 */
export function estimatedFeesBody(feesJson: string): string {
  return `{"fees":${feesJson || "[]"}}`;
}
