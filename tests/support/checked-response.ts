import { openapiErrors } from "./openapi";
import { documentedResponse } from "./openapi-operations";
import { ourOpenApi } from "./our-openapi";

/**
 * What every end-to-end answer is held to (tests/support/api.ts checks each one): our OpenAPI
 * document as the gateway under test serves it (exactly the keys it lists), and, where Lago has
 * the operation, the schema Lago's document gives it for that status (Lago's error bodies for an
 * error status the operation does not list).
 */
const ERROR_SCHEMAS: Record<number, string> = {
  400: "ApiErrorBadRequest",
  401: "ApiErrorUnauthorized",
  403: "ApiErrorForbidden",
  404: "ApiErrorNotFound",
  405: "ApiErrorNotAllowed",
  422: "ApiErrorUnprocessableEntity",
};

/** Lago's operation for `METHOD path`, or undefined where Lago has no such route. */
function lago(method: string, path: string, status: number) {
  try {
    return documentedResponse(method, path, status);
  } catch {
    return undefined;
  }
}

/** The schema Lago's document gives the answer to `method path` with that status (the error bodies when it documents none); null when Lago has no say. */
export function lagoSchemaOf(method: string, path: string, status: number): { schema: string; part?: string } | null {
  // beyond Lago: the test clock has no schema in Lago's document
  if (path.startsWith("/test_clock")) return null;
  // the document describes a billing entity inline (GET) or bare (PUT) while the server wraps it
  if (path.startsWith("/billing_entities/") && status === 200)
    return { schema: "BillingEntityObjectExtended", part: "billing_entity" };
  // the document shows a wallet transaction bare; Lago's server wraps it, and so do we (the wallets issue)
  if (method === "GET" && path.startsWith("/wallet_transactions/") && status === 200)
    return { schema: "WalletTransactionObject", part: "wallet_transaction" };
  // likewise a payment (the payments issue)
  if (method === "GET" && path.startsWith("/payments/") && status === 200)
    return { schema: "PaymentObject", part: "payment" };
  // and a payment request (the payment requests issue)
  if (method === "GET" && path.startsWith("/payment_requests/") && status === 200)
    return { schema: "PaymentRequestObject", part: "payment_request" };
  // beyond Lago: the delivery log and the organization's HMAC key (Lago's document has only the public keys)
  if (path === "/webhooks" || (path.startsWith("/webhooks/") && !path.endsWith("public_key"))) return null;
  // beyond Lago: the sandbox provider's confirmation answers the payment
  if (path.startsWith("/sandbox/payments/"))
    return status === 200 ? { schema: "PaymentObject", part: "payment" } : null;
  // Lago's admin route (not in its public document): answers the regenerated invoice
  if (method === "POST" && /^\/invoices\/[^/]+\/regenerate$/.test(path))
    return status === 200 ? { schema: "Invoice" } : null;
  const operation = lago(method, path, status);
  if (!operation) return null; // a route of ours alone: our document is the judge
  if (operation.schema) return { schema: operation.schema };
  return ERROR_SCHEMAS[status] ? { schema: ERROR_SCHEMAS[status]! } : null;
}

/**
 * The mismatches of one answer (`path` relative to /api/v1, its query string allowed): against our
 * document, then against Lago's where it has the operation. Empty when the answer agrees with both.
 */
export async function responseMismatches(
  baseUrl: string,
  method: string,
  path: string,
  status: number,
  body: unknown,
): Promise<string[]> {
  const route = path.split("?")[0]!;
  const problems = (await ourOpenApi(baseUrl)).errors(method, route, status, body).map((e) => `our document: ${e}`);
  const check = lagoSchemaOf(method.toUpperCase(), route, status);
  if (check) {
    const checked = check.part ? (body as Record<string, unknown> | undefined)?.[check.part] : body;
    problems.push(...openapiErrors(check.schema, checked).map((e) => `Lago's ${check.schema}: ${e}`));
  }
  return problems;
}
