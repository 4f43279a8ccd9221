import { openapiErrors } from "./openapi";
import { documentedResponse } from "./openapi-operations";
import { ourOpenApi } from "./our-openapi";

export interface CheckedExchange {
  method: string;
  path: string;
  operationId: string;
  status: number;
  schema: string;
}

/**
 * A fetch for API clients (e.g. the Lago JS client's `customFetch`) that checks every response body
 * against the schema Lago's OpenAPI document gives the operation for that status, and against our
 * own document (the gateway's /api/v1/openapi.json). A response that does not match, or a status
 * the operation does not document, makes the call throw with the reasons; `exchanges` lists what
 * was checked.
 */
export function openapiCheckedFetch(apiPrefix = "/api/v1") {
  const exchanges: CheckedExchange[] = [];
  const checkedFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const response = await fetch(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
    const path = url.pathname.startsWith(apiPrefix) ? url.pathname.slice(apiPrefix.length) : url.pathname;
    const { operationId, schema } = documentedResponse(method, path, response.status);
    const text = await response.clone().text();
    const where = `${method} ${url.pathname}${url.search} (${operationId}) → ${response.status}`;
    if (!schema) throw new Error(`${where}: status not documented for this operation; body ${text}`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(`${where}: body is not JSON: ${JSON.stringify(text)}`);
    }
    const errors = openapiErrors(schema, body);
    if (errors.length)
      throw new Error(`${where}: body does not match ${schema}:\n  ${errors.join("\n  ")}\nbody: ${text}`);
    const ours = (await ourOpenApi(url.origin)).errors(method, path, response.status, body);
    if (ours.length)
      throw new Error(`${where}: body does not match our OpenAPI document:\n  ${ours.join("\n  ")}\nbody: ${text}`);
    exchanges.push({ method, path, operationId, status: response.status, schema });
    return response;
  };
  return { fetch: checkedFetch, exchanges };
}
