import type { Request } from "express";
import { AppError } from "@billing/errors";
import type { z } from "zod";

/** zod issue codes → Lago's field error codes; a custom message that is already a code wins. */
function lagoCode(issue: z.core.$ZodIssue, input: unknown): string {
  if (/^[a-z_]+$/.test(issue.message)) return issue.message;
  const missing = valueAt(input, issue.path) === undefined || valueAt(input, issue.path) === null;
  switch (issue.code) {
    case "invalid_type":
      return missing ? "value_is_mandatory" : "value_is_invalid";
    case "too_big":
      return issue.origin === "string" ? "value_is_too_long" : "value_is_out_of_range";
    case "too_small":
      if (issue.origin === "string")
        return missing || valueAt(input, issue.path) === "" ? "value_is_mandatory" : "value_is_too_short";
      return "value_is_out_of_range";
    case "invalid_format":
      return issue.format === "email" ? "invalid_email_format" : "invalid_format";
    default:
      return "value_is_invalid";
  }
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let node = input;
  for (const key of path)
    node = node && typeof node === "object" ? (node as Record<PropertyKey, unknown>)[key] : undefined;
  return node;
}

export type ErrorKeyOf = (path: PropertyKey[]) => string;
const dotted: ErrorKeyOf = (path) => path.map(String).join(".");

/** Parses with a zod schema; failures become 422 validation_errors keyed by field. */
export function parseFields<S extends z.ZodType>(schema: S, input: unknown, keyOf: ErrorKeyOf = dotted): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const details: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const key = keyOf(issue.path) || "base";
    const code = lagoCode(issue, input);
    if (!details[key]?.includes(code)) (details[key] ??= []).push(code);
  }
  throw AppError.validation(details);
}

/** Lago's root-key rule: `{"customer": {...}}`; a missing or non-object root is a 400. */
export function wrapped(req: Request, key: string): Record<string, unknown> {
  return wrappedIn(req.body, key);
}

/** `wrapped` for a body parsed outside express. */
export function wrappedIn(parsedBody: unknown, key: string): Record<string, unknown> {
  const body = parsedBody as Record<string, unknown> | undefined;
  const value = body && typeof body === "object" && !Array.isArray(body) ? body[key] : undefined;
  if (value === undefined || value === null || typeof value !== "object" || Array.isArray(value)) {
    throw AppError.badRequest(`param is missing or the value is empty: ${key}`);
  }
  return value as Record<string, unknown>;
}

/** page / per_page: default 1 and 100 (Lago's default); per_page capped at 1000. */
export function pageQuery(req: Request): { page: number; per_page: number } {
  const int = (value: unknown, fallback: number) => {
    const n = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : NaN;
    return Number.isSafeInteger(n) && n > 0 ? n : fallback;
  };
  return { page: int(req.query.page, 1), per_page: Math.min(int(req.query.per_page, 100), 1000) };
}

/** Query keys as Lago clients send them: `statuses[]=a&statuses[]=b` (also percent-encoded) → `statuses`. */
export const unbracketed = (query: Request["query"]) =>
  Object.fromEntries(Object.entries(query).map(([k, v]) => [k.replace(/\[\]$/, ""), v]));

/** A query parameter that may be repeated (`coupon_code[]=a&coupon_code[]=b`) or sent once; anything else is ignored. */
export function stringList(value: unknown): string[] {
  const values = Array.isArray(value) ? value : [value];
  return values.filter((v): v is string => typeof v === "string" && v.length > 0);
}

/** A single string query parameter, or undefined. */
export function stringParam(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 ? value : undefined;
}
