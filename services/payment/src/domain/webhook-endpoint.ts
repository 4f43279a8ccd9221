import { isIP } from "node:net";
import { isForbiddenAddress } from "./webhook-address";
import { WEBHOOK_TYPES } from "./webhook-events";

export const SIGNATURE_ALGOS = ["hmac", "jwt", "standard"] as const;
export type SignatureAlgo = (typeof SIGNATURE_ALGOS)[number];

export interface WebhookEndpoint {
  id: string;
  organization_id: string;
  webhook_url: string;
  signature_algo: SignatureAlgo;
  name: string | null;
  /** null: every type */
  event_types: string[] | null;
  /** Standard Webhooks secret (whsec_ + base64), for `standard` endpoints */
  signing_secret: string | null;
  created_at: Date;
  updated_at: Date;
}

/** At most this many endpoints per organization (Lago allows 10). */
export const MAX_ENDPOINTS_PER_ORGANIZATION = 10;

/** Field errors in Lago's validation_errors shape ({field: [code]}), or null when the input is acceptable. */
export function endpointInputErrors(
  input: { webhook_url: string; signature_algo: string; event_types: string[] | null },
  allowPrivate: boolean,
) {
  const errors: Record<string, string[]> = {};
  const urlProblem = urlPolicyProblem(input.webhook_url, allowPrivate);
  if (urlProblem) errors.webhook_url = [urlProblem];
  if (!(SIGNATURE_ALGOS as readonly string[]).includes(input.signature_algo))
    errors.signature_algo = ["value_is_invalid"];
  if (input.event_types && input.event_types.some((t) => t !== "*" && !WEBHOOK_TYPES.has(t)))
    errors.event_types = ["value_is_invalid"];
  return Object.keys(errors).length ? errors : null;
}

/**
 * Why a URL may not receive webhooks: not http(s), credentials in it, or (unless private
 * addresses are allowed) a host that is loopback, private, link-local or otherwise internal: an
 * internal name, or an IP literal that `isForbiddenAddress` refuses. Each attempt checks again
 * (the poster: the literal, or every address a host name resolves to), with the same check.
 */
export function urlPolicyProblem(raw: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "url_invalid";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "url_invalid";
  if (url.username || url.password) return "url_invalid";
  if (raw.length > 2048) return "url_invalid";
  if (allowPrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".internal") || host.endsWith(".local"))
    return "url_not_allowed";
  if (isIP(host) && isForbiddenAddress(host)) return "url_not_allowed";
  return null;
}

/** Whether an endpoint wants a type. */
export const subscribes = (endpoint: Pick<WebhookEndpoint, "event_types">, webhookType: string) =>
  endpoint.event_types === null || endpoint.event_types.includes("*") || endpoint.event_types.includes(webhookType);
