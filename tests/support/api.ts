import { responseMismatches } from "./checked-response";
import { ourOpenApi } from "./our-openapi";

export interface CallOptions {
  /** the request body as sent, verbatim (malformed JSON on purpose) */
  raw?: string;
  headers?: Record<string, string>;
  /**
   * Why this answer is NOT checked against the OpenAPI documents: only for a request no document can
   * describe (a route that does not exist, on purpose). Every other answer is checked.
   */
  unchecked?: string;
}

/**
 * A tiny HTTP client for end-to-end tests: status and parsed JSON body. Every answer is checked
 * against our OpenAPI document (the gateway's /api/v1/openapi.json: the operation's schema for that
 * status, exactly the keys it lists) and, where Lago has the operation, against Lago's
 * (tests/support/checked-response.ts); a mismatch fails the call, and so the test, naming the
 * request, the status, every disagreement and the body.
 */
export function api(baseUrl: string, apiKey?: string) {
  // fetched now, while the gateway is surely up (a crash test may stop it later)
  ourOpenApi(baseUrl).catch(() => undefined);
  return async (method: string, path: string, body?: unknown, init: CallOptions = {}) => {
    const headers: Record<string, string> = { "content-type": "application/json", ...init.headers };
    if (apiKey) headers.authorization = `Bearer ${apiKey}`;
    const res = await fetch(`${baseUrl}/api/v1${path}`, {
      method,
      headers,
      body: init.raw ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
    const text = await res.text();
    const reply = { status: res.status, body: text ? JSON.parse(text) : undefined };
    if (init.unchecked === undefined) {
      const problems = await responseMismatches(baseUrl, method, path, reply.status, reply.body);
      if (problems.length) {
        throw new Error(
          `${method} ${path} → ${reply.status} disagrees with the OpenAPI documents:\n  ${problems.join("\n  ")}\nbody: ${text}`,
        );
      }
    }
    return reply;
  };
}
