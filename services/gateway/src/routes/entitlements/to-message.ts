import type { EntitlementsInput } from "./validators";

/** A value as sent, by its JSON kind (the catalog checks it against the privilege); null sets none. */
function sentValue(value: unknown) {
  if (typeof value === "boolean") return { boolean_value: value };
  if (typeof value === "number") return { number_value: value };
  if (typeof value === "string") return { string_value: value };
  return value === null || value === undefined ? {} : { other_value: true };
}

/** The proto EntitlementInput list. */
export function toEntitlementInputMessages(input: EntitlementsInput) {
  return Object.entries(input).map(([feature_code, values]) => ({
    feature_code,
    privileges: Object.entries(values ?? {}).map(([privilege_code, value]) => ({
      privilege_code,
      ...sentValue(value),
    })),
  }));
}
