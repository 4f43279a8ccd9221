import type { EntitlementsInput } from "./validators";

/** The proto EntitlementInput list, each value as JSON text. */
export function toEntitlementInputMessages(input: EntitlementsInput) {
  return Object.entries(input).map(([feature_code, values]) => ({
    feature_code,
    privileges: Object.entries(values ?? {}).map(([privilege_code, value]) => ({ privilege_code, value_json: JSON.stringify(value ?? null) })),
  }));
}
