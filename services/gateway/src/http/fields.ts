import {
  COUNTRY_CODES,
  CURRENCY_CODES,
  DOCUMENT_LOCALES,
  isCountryCode,
  isCurrencyCode,
  isDocumentLocale,
  isTimezone,
} from "@billing/codes";
import { z } from "zod";
import type { ErrorKeyOf } from "./validation";

const DECIMAL = /^\d+(\.\d+)?$/;

/** Lago's codes for a value that is absent (or null) versus present but wrong. */
export const mandatoryOrInvalid = (issue: { input?: unknown }) =>
  issue.input === undefined || issue.input === null ? "value_is_mandatory" : "value_is_invalid";

/** One of a list of strings; a missing value is value_is_mandatory (zod reports it as an invalid value). */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: mandatoryOrInvalid });

/** A non-negative decimal sent as a string ("20.5") or a number (20.5) → its decimal string. */
export const decimalInput = z
  .union([z.string(), z.number()], { error: mandatoryOrInvalid })
  .transform((v) => (typeof v === "number" ? String(v) : v.trim()))
  .refine((v) => DECIMAL.test(v), "value_is_invalid");

/** Errors are keyed by the top-level attribute, as Lago names them (`filters`, not `filters.0.key`). */
export const topLevelKey: ErrorKeyOf = (path) => (path.length ? String(path[0]) : "base");

/** A calendar day YYYY-MM-DD that exists (2024-02-30 and 5038-00-28 are refused: invalid_date). */
export const calendarDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "invalid_date")
  .refine((v) => {
    const day = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === v;
  }, "invalid_date");

/**
 * A code from a fixed list, refused with Lago's `code`. The document lists the values (an enum, with
 * null for the nullish form), so that a client, or a fuzzer, sends one the server takes.
 */
function listedCode(values: readonly string[], is: (value: string) => boolean, code: string, description: string) {
  const value = z.string({ error: mandatoryOrInvalid }).refine(is, code);
  return {
    required: value.meta({ enum: [...values], description }),
    optional: value.optional().meta({ enum: [...values], description }),
    nullish: value.nullish().meta({ enum: [...values, null], description }),
  };
}

export const currencyCode = listedCode(CURRENCY_CODES, isCurrencyCode, "value_is_invalid", "ISO 4217 currency code");
export const countryCode = listedCode(
  COUNTRY_CODES,
  isCountryCode,
  "not_a_valid_country_code",
  "ISO 3166-1 alpha-2 country code",
);
export const documentLocale = listedCode(
  DOCUMENT_LOCALES,
  isDocumentLocale,
  "invalid_language_code",
  "Language of the documents",
);
/** An IANA time zone name (or Lago's "GMT+2" form): too many aliases to list. */
export const timezoneName = z.string().refine(isTimezone, "invalid_timezone");
