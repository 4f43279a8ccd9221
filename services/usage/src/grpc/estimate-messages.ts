import { AppError } from "@billing/errors";

/** Proto ⇄ domain for EstimateFees. */

const invalidProperties = () => AppError.validation({ properties: ["value_is_invalid"] });

/** properties_json → the estimated event's properties (absent or null: none; not an object: 422). */
export function estimatedProperties(json: string | null | undefined): Record<string, unknown> {
  if (!json) return {};
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw invalidProperties();
  }
  if (value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) throw invalidProperties();
  return value as Record<string, unknown>;
}
