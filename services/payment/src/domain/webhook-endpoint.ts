import { isIP } from "node:net";
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
export function endpointInputErrors(input: { webhook_url: string; signature_algo: string; event_types: string[] | null }, allowPrivate: boolean) {
  const errors: Record<string, string[]> = {};
  const urlProblem = urlPolicyProblem(input.webhook_url, allowPrivate);
  if (urlProblem) errors.webhook_url = [urlProblem];
  if (!(SIGNATURE_ALGOS as readonly string[]).includes(input.signature_algo)) errors.signature_algo = ["value_is_invalid"];
  if (input.event_types && input.event_types.some((t) => t !== "*" && !WEBHOOK_TYPES.has(t))) errors.event_types = ["value_is_invalid"];
  return Object.keys(errors).length ? errors : null;
}

/**
 * Why a URL may not receive webhooks: not http(s), credentials in it, or (unless private
 * addresses are allowed) a host that is loopback, private, link-local or otherwise internal.
 * Host names are checked again against the addresses they resolve to when a delivery is sent.
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
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".internal") || host.endsWith(".local")) return "url_not_allowed";
  if (isIP(host) && isPrivateAddress(host)) return "url_not_allowed";
  return null;
}

/** Loopback, private (RFC 1918, unique local), link-local, CGNAT, unspecified, multicast and reserved addresses. */
export function isPrivateAddress(address: string): boolean {
  const v4 = isIP(address) === 4 ? address : /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] ?? mappedHex(address);
  if (v4) {
    const [a, b] = v4.split(".").map(Number) as [number, number];
    return a === 0 || a === 10 || a === 127 || (a === 100 && b >= 64 && b <= 127) || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31)
      || (a === 192 && b === 168) || (a === 198 && (b === 18 || b === 19)) || a >= 224;
  }
  const v6 = address.toLowerCase();
  return v6 === "::" || v6 === "::1" || v6.startsWith("fc") || v6.startsWith("fd") || v6.startsWith("fe8") || v6.startsWith("fe9")
    || v6.startsWith("fea") || v6.startsWith("feb") || v6.startsWith("ff");
}

/** An IPv4-mapped IPv6 address as URLs normalize it (`::ffff:7f00:1`), in dotted form. */
function mappedHex(address: string): string | undefined {
  const m = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!m) return undefined;
  const [hi, lo] = [parseInt(m[1]!, 16), parseInt(m[2]!, 16)];
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** Whether an endpoint wants a type. */
export const subscribes = (endpoint: Pick<WebhookEndpoint, "event_types">, webhookType: string) =>
  endpoint.event_types === null || endpoint.event_types.includes("*") || endpoint.event_types.includes(webhookType);
