import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import {
  apiError,
  apiErrorBadRequest,
  apiErrorNotFound,
  apiErrorUnauthorized,
  apiErrorUnprocessableEntity,
} from "@billing/views";
import { OPERATIONS, type Operation } from "./operations";

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31["generateDocument"]>;

const DESCRIPTION = `A usage-based billing platform's API, compatible with Lago's: Lago's clients work against it, with
Lago's \`lago_*\` identifiers named \`svc_*\`.

**Authentication**: \`Authorization: Bearer <API key>\` on every route but this document, \`/docs\` and \`/health\`.
A sandbox organization's requests run at its test clock's time.

**Bodies**: wrapped in the resource's name (\`{"customer": {...}}\`), answers too; lists are paginated
(\`?page=&per_page=\`, \`meta\`).

**Errors**: Lago's bodies: \`{"status", "error"}\`, plus \`code\` (404, 403, 405) and \`error_details\` (422, field → codes).`;

const TAGS = [
  "Customers",
  "Billing entities",
  "Taxes",
  "Billable metrics",
  "Add-ons",
  "Coupons",
  "Plans",
  "Features",
  "Entitlements",
  "Invoice custom sections",
  "Subscriptions",
  "Events",
  "Invoices",
  "Wallets",
  "Payments",
  "Payment requests",
  "Webhooks",
  "Test clock",
  "Platform",
];

const PATH_PARAMS: Record<string, string> = {
  code: "the object's code",
  external_id: "the object's external id (yours)",
  external_customer_id: "the customer's external id",
  id: "the object's svc_id",
  applied_coupon_id: "the applied coupon's svc_id",
  feature_code: "the feature's code",
  privilege_code: "the privilege's code",
};

/** `{name}` segments of a path template → the operation's path parameters. */
function pathParams(path: string): z.ZodObject | undefined {
  const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  if (names.length === 0) return undefined;
  return z.object(Object.fromEntries(names.map((name) => [name, z.string().describe(PATH_PARAMS[name] ?? name)])));
}

const json = (schema: z.ZodType) => ({ "application/json": { schema } });

/** Lago's error answers: what a route can answer besides its 200. */
function errorResponses(op: Operation): RouteConfig["responses"] {
  // a public route that refuses (a document's signed link): 403 and 404 in Lago's shape
  if (op.public && op.refuses) {
    return {
      403: { description: "A forged, altered, malformed or expired link.", content: json(apiError) },
      404: { description: "The document does not exist.", content: json(apiErrorNotFound) },
      default: { description: "Another error in Lago's shape.", content: json(apiError) },
    };
  }
  if (op.public) return {};
  return {
    ...(op.body
      ? { 400: { description: "The body is not JSON, or lacks its root key.", content: json(apiErrorBadRequest) } }
      : {}),
    401: { description: "No API key, or an unknown one.", content: json(apiErrorUnauthorized) },
    404: { description: "The object, or one the request names, does not exist.", content: json(apiErrorNotFound) },
    422: { description: "Invalid fields, or a rule the request breaks.", content: json(apiErrorUnprocessableEntity) },
    default: { description: "Another error (403, 405, 413, 415, 429, 5xx) in Lago's shape.", content: json(apiError) },
  };
}

function routeConfig(op: Operation): RouteConfig {
  const params = pathParams(op.path);
  return {
    method: op.method,
    path: op.path,
    operationId: op.operationId,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.tag],
    ...(op.public ? { security: [] } : {}),
    ...(op.outsideApi ? { servers: [{ url: "/" }] } : {}),
    request: {
      ...(params ? { params } : {}),
      ...(op.query ? { query: op.query } : {}),
      ...(op.body ? { body: { required: true, content: json(op.body) } } : {}),
    },
    responses: {
      200: { description: "OK", content: { [op.mediaType ?? "application/json"]: { schema: op.response } } },
      ...errorResponses(op),
    },
  };
}

/** The OpenAPI 3.1 document of every route the gateway serves, generated from the zod schemas. */
export function buildOpenApiDocument(): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description: "An organization's API key (`npm run org:create` prints one).",
  });
  for (const op of OPERATIONS) registry.registerPath(routeConfig(op));
  const generator = new OpenApiGeneratorV31(registry.definitions, { sortComponents: "alphabetically" });
  return generator.generateDocument({
    openapi: "3.1.0",
    info: { title: "Billing platform API", version: "1", description: DESCRIPTION },
    servers: [{ url: "/api/v1", description: "this gateway" }],
    security: [{ bearerAuth: [] }],
    tags: TAGS.map((name) => ({ name })),
  });
}

let built: { document: OpenApiDocument; json: string } | undefined;

/** The document, generated once per process, and its JSON text. */
export function openApiDocument(): { document: OpenApiDocument; json: string } {
  if (!built) {
    const document = buildOpenApiDocument();
    built = { document, json: JSON.stringify(document) };
  }
  return built;
}
