import { properties } from "./events/fields";

/**
 * The customer's own free-form JSON objects (an event's `properties`, a resource's `metadata`)
 * travel as JSON text: their shape is the customer's, not ours. Read back here, at the boundary,
 * with their zod schema: "" and null are {}, and anything else but a JSON object throws (a SyntaxError or a
 * ZodError; the caller answers it as the bad request or the malformed message it is).
 */
export function customerObjectOfText(text: string | null | undefined): Record<string, unknown> {
  if (!text) return {};
  return properties.nullable().parse(JSON.parse(text)) ?? {};
}

/** A customer's free-form JSON object → its text for a message ("" for none). */
export const customerObjectText = (value: Record<string, unknown> | null | undefined): string =>
  value ? JSON.stringify(value) : "";
