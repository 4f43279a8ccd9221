import { z } from "zod";

/**
 * zod schemas of the JSON objects the API answers with: the gateway's OpenAPI document is generated
 * from them (`.meta({ id })` names a component), and the presenters are checked against them at
 * build time (`satisfies ViewOf<typeof schema>`), so the document and the server cannot drift apart.
 * Enumerations are documented here; a presenter only has to produce a string there (`ViewOf`),
 * the end-to-end tests check the values.
 */

/** What a presenter must produce for a schema: its input type, with string enumerations widened to string. */
export type ViewOf<S extends z.ZodType> = Widened<z.input<S>>;
type Widened<T> = T extends string
  ? string
  : T extends ReadonlyArray<infer E>
    ? Array<Widened<E>>
    : T extends object
      ? { [K in keyof T]: Widened<T[K]> }
      : T;

/** An ISO 8601 instant with its offset (`2024-01-31T23:59:59Z`). */
export const instant = z.iso.datetime({ offset: true });
/** A calendar day (`2024-01-31`). */
export const day = z.iso.date();
/** An amount in the currency's smallest unit. */
export const cents = z.number().int();
/** A decimal written as a string (`"10.5"`), as Lago writes precise amounts and credits. */
export const decimalText = z.string().regex(/^-?\d+(\.\d+)?$/);
/** An ISO 4217 currency code. */
export const currency = z.string().length(3).describe("ISO 4217 currency code");
/** A free-form JSON object. */
export const jsonObject = z.record(z.string(), z.unknown());
/** Any JSON value but null. */
export const jsonValue = z.union([z.string(), z.number(), z.boolean(), jsonObject, z.array(z.unknown())]);

/** Lago's TaxObject (`rate` is a number in answers). */
export const taxObject = z
  .object({
    svc_id: z.string(),
    name: z.string(),
    code: z.string(),
    description: z.string().nullable(),
    rate: z.number().describe("percent"),
    applied_to_organization: z.boolean(),
    created_at: instant,
  })
  .meta({ id: "TaxObject", description: "A tax: its rate applies to the fees of whatever carries it." });

/** Lago's PaginationMeta. */
export const paginationMeta = z
  .object({
    current_page: z.number().int(),
    next_page: z.number().int().nullable(),
    prev_page: z.number().int().nullable(),
    total_pages: z.number().int(),
    total_count: z.number().int(),
  })
  .meta({
    id: "PaginationMeta",
    description: "Where a page of a list is: `?page=` (from 1) and `?per_page=` (default 100, at most 1000).",
  });

// ---------------------------------------------------------------------------------------------
// errors: Lago's error bodies (libs/errors' toHttpError, the gateway's errorResponse)

const validationDetails = z
  .record(z.string(), z.union([z.array(z.string()), z.record(z.string(), z.array(z.string()))]))
  .describe(
    "field → error codes (`value_is_mandatory`, `value_is_invalid`, …); for a batch of events, index → such a map",
  );

export const apiErrorBadRequest = z
  .object({
    status: z.literal(400),
    error: z.string().describe("`Bad Request`, or `BadRequest: <reason>` (e.g. the root key is missing)"),
  })
  .meta({ id: "ApiErrorBadRequest", description: "The body is not JSON, or not the object the route takes." });
export const apiErrorUnauthorized = z
  .object({ status: z.literal(401), error: z.literal("Unauthorized") })
  .meta({ id: "ApiErrorUnauthorized", description: "No API key, or an unknown one." });
export const apiErrorNotFound = z
  .object({
    status: z.literal(404),
    error: z.literal("Not Found"),
    code: z.string().describe("`<resource>_not_found`, e.g. `customer_not_found`"),
  })
  .meta({ id: "ApiErrorNotFound", description: "Something the request names does not exist in the organization." });
export const apiErrorUnprocessableEntity = z
  .object({
    status: z.literal(422),
    error: z.literal("Unprocessable Entity"),
    code: z.string().describe("`validation_errors`, or a rule's code"),
    error_details: validationDetails,
  })
  .meta({
    id: "ApiErrorUnprocessableEntity",
    description: "The request is well formed but breaks a rule: field errors by name.",
  });
export const apiError = z
  .object({
    status: z.number().int(),
    error: z.string(),
    code: z.string().optional(),
    error_details: validationDetails.optional(),
  })
  .meta({
    id: "ApiError",
    description: "Any other error in Lago's shape: 403/405 (with a `code`), 413, 415, 429, 500, 503, 504.",
  });
