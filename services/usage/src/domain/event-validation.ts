/**
 * The `event` objects of POST /events and /events/batch, checked by hand, once (the gateway passes
 * the bodies through): this is the hot path (up to 100 events per request, tens of thousands per
 * second), so one pass over plain values, no schema library. Lago's codes: value_is_mandatory,
 * invalid_format (timestamp), value_is_invalid; and ours, value_is_too_deep (properties nested
 * deeper than MAX_PROPERTIES_DEPTH, `@billing/contracts`).
 */
import { MAX_PROPERTIES_DEPTH, nestedDeeperThan } from "@billing/contracts";

export type FieldErrors = Record<string, string[]>;

export interface ValidEvent {
  transaction_id: string;
  external_subscription_id: string;
  code: string;
  /** Unix ms (decimals kept); absent = reception time */
  timestamp_ms?: number;
  /** a JSON object's value (keys may hold `.` or start with `$`) */
  properties?: Record<string, unknown>;
  precise_total_amount_cents?: string;
}

const SECONDS = /^-?\d+(\.\d+)?$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;
/** ±10 000 years in ms, what a Date holds */
const MAX_MS = 8.64e15;

function identifier(value: unknown): string | null {
  if (typeof value === "string") return value.length > 0 ? value : null;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return null;
}

/** Unix seconds (integer, decimal number, or their string) → ms; null when not a timestamp. */
export function timestampMs(value: unknown): number | null {
  let ms: number;
  if (typeof value === "number") ms = value * 1000;
  else if (typeof value === "string" && SECONDS.test(value.trim())) {
    const [whole, fraction = ""] = value.trim().split(".");
    const sign = whole!.startsWith("-") ? -1 : 1;
    ms = Number(whole) * 1000 + sign * Number(`0.${fraction || "0"}`) * 1000;
  } else return null;
  return Number.isFinite(ms) && Math.abs(ms) <= MAX_MS ? ms : null;
}

export function validateEvent(raw: unknown): { event: ValidEvent } | { errors: FieldErrors } {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return { errors: { event: ["value_is_invalid"] } };
  const input = raw as Record<string, unknown>;
  const errors: FieldErrors = {};
  const transactionId = identifier(input.transaction_id);
  const subscriptionId = identifier(input.external_subscription_id);
  const code = identifier(input.code);
  if (transactionId === null)
    errors.transaction_id = [
      input.transaction_id == null || input.transaction_id === "" ? "value_is_mandatory" : "value_is_invalid",
    ];
  if (subscriptionId === null)
    errors.external_subscription_id = [
      input.external_subscription_id == null || input.external_subscription_id === ""
        ? "value_is_mandatory"
        : "value_is_invalid",
    ];
  if (code === null)
    errors.code = [input.code == null || input.code === "" ? "value_is_mandatory" : "value_is_invalid"];
  const event: ValidEvent = { transaction_id: transactionId!, external_subscription_id: subscriptionId!, code: code! };
  if (input.timestamp != null && input.timestamp !== "") {
    const ms = timestampMs(input.timestamp);
    if (ms === null) errors.timestamp = ["invalid_format"];
    else event.timestamp_ms = ms;
  }
  const properties = input.properties;
  if (properties != null) {
    if (typeof properties !== "object" || Array.isArray(properties)) errors.properties = ["value_is_invalid"];
    else if (nestedDeeperThan(properties, MAX_PROPERTIES_DEPTH)) errors.properties = ["value_is_too_deep"];
    else event.properties = properties as Record<string, unknown>;
  }
  const amount = input.precise_total_amount_cents;
  if (amount != null) {
    const text =
      typeof amount === "number" && Number.isFinite(amount)
        ? String(amount)
        : typeof amount === "string"
          ? amount.trim()
          : "";
    if (!DECIMAL.test(text)) errors.precise_total_amount_cents = ["value_is_invalid"];
    else event.precise_total_amount_cents = text;
  }
  for (const _ in errors) return { errors };
  return { event };
}
