import { Client } from "lago-javascript-client";
import { expect } from "vitest";
import { openapiCheckedFetch } from "./openapi-checked-fetch";

/**
 * The official Lago JavaScript client on our API, every response it receives checked against the
 * schema Lago's OpenAPI document gives that operation and status (a mismatch fails the call).
 */
export function checkedLagoClient(baseUrl: string, apiKey: string) {
  return Client(apiKey, { baseUrl: `${baseUrl}/api/v1`, customFetch: openapiCheckedFetch().fetch as typeof fetch });
}

/** The client rejects with the Response itself on an error status; this keeps the status and Lago's error body. */
export const lagoFailure = (call: Promise<unknown>) =>
  call.then(
    () => expect.fail("expected the call to fail"),
    (rejection: Error | { status: number; error: unknown }) => {
      if (rejection instanceof Error) throw rejection; // the response did not match the document
      return { status: rejection.status, error: rejection.error };
    },
  );
