/** IngestEvents' EventInput as proto-loader gives it (absent optional fields are undefined or defaulted). */
export interface EventInput {
  transaction_id: string;
  external_subscription_id: string;
  code: string;
  timestamp_ms?: number | null;
  properties_json?: string | null;
  precise_total_amount_cents?: string | null;
  _timestamp_ms?: string;
  _properties_json?: string;
  _precise_total_amount_cents?: string;
}

export type FieldErrors = Record<string, string[]>;

/** ±10 000 years around 1970 in ms: what a Date holds. */
const MAX_TIME = 8.64e15;
const DECIMAL = /^-?\d+(\.\d+)?$/;

/** An optional proto3 field: present when its synthetic oneof names it, or when it holds a value. */
export function present<K extends "timestamp_ms" | "properties_json" | "precise_total_amount_cents">(input: EventInput, field: K): boolean {
  const marker = input[`_${field}` as const];
  if (marker !== undefined) return marker === field;
  return input[field] !== undefined && input[field] !== null;
}

/**
 * Checks what the gateway already validated (the service does not trust its callers' shapes)
 * and parses the properties. Returns the errors of one event, or the parsed properties.
 */
export function checkEventInput(input: EventInput): { errors: FieldErrors } | { properties: Record<string, unknown> | null } {
  const errors: FieldErrors = {};
  for (const field of ["transaction_id", "external_subscription_id", "code"] as const) {
    if (typeof input[field] !== "string" || input[field].length === 0) errors[field] = ["value_is_mandatory"];
  }
  if (present(input, "timestamp_ms")) {
    const t = input.timestamp_ms;
    if (typeof t !== "number" || !Number.isFinite(t) || Math.abs(t) > MAX_TIME) errors.timestamp = ["invalid_format"];
  }
  if (present(input, "precise_total_amount_cents") && !DECIMAL.test(input.precise_total_amount_cents ?? "")) {
    errors.precise_total_amount_cents = ["value_is_invalid"];
  }
  let properties: Record<string, unknown> | null = null;
  if (present(input, "properties_json") && input.properties_json) {
    try {
      const parsed: unknown = JSON.parse(input.properties_json);
      if (parsed !== null && (typeof parsed !== "object" || Array.isArray(parsed))) errors.properties = ["value_is_invalid"];
      else properties = parsed as Record<string, unknown> | null;
    } catch {
      errors.properties = ["value_is_invalid"];
    }
  }
  return Object.keys(errors).length > 0 ? { errors } : { properties };
}
