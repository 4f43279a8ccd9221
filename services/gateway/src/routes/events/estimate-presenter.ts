/** `{fees: [Fee]}`: the usage service already builds Lago's Fee objects; they pass through as they are. */
export function presentEstimatedFees(feesJson: string): { fees: unknown[] } {
  const fees: unknown = JSON.parse(feesJson || "[]");
  return { fees: Array.isArray(fees) ? fees : [] };
}
