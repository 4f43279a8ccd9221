import type { FieldErrors, ValidEvent } from "./event-validation";

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
 * An EventInput of IngestEvents checked like an API event (the service does not trust its
 * callers' shapes), with its properties parsed: the events the ingestion takes.
 */
export function checkEventInput(input: EventInput): { errors: FieldErrors } | { event: ValidEvent } {
  const errors: FieldErrors = {};
  for (const field of ["transaction_id", "external_subscription_id", "code"] as const) {
    if (typeof input[field] !== "string" || input[field].length === 0) errors[field] = ["value_is_mandatory"];
  }
  const event: ValidEvent = { transaction_id: input.transaction_id, external_subscription_id: input.external_subscription_id, code: input.code };
  if (present(input, "timestamp_ms")) {
    const t = input.timestamp_ms;
    if (typeof t !== "number" || !Number.isFinite(t) || Math.abs(t) > MAX_TIME) errors.timestamp = ["invalid_format"];
    else event.timestamp_ms = t;
  }
  if (present(input, "precise_total_amount_cents")) {
    if (!DECIMAL.test(input.precise_total_amount_cents ?? "")) errors.precise_total_amount_cents = ["value_is_invalid"];
    else event.precise_total_amount_cents = input.precise_total_amount_cents!;
  }
  if (present(input, "properties_json") && input.properties_json) {
    try {
      const parsed: unknown = JSON.parse(input.properties_json);
      if (parsed !== null && (typeof parsed !== "object" || Array.isArray(parsed))) errors.properties = ["value_is_invalid"];
      else if (parsed) event.properties = parsed as Record<string, unknown>;
    } catch {
      errors.properties = ["value_is_invalid"];
    }
  }
  return Object.keys(errors).length > 0 ? { errors } : { event };
}
