import { createHash, randomBytes } from "node:crypto";

/** A new API key: 32 random bytes, URL-safe. Only its hash is stored. */
export function generateApiKey(): string {
  return `sk_${randomBytes(32).toString("base64url")}`;
}

/** Keys are high-entropy random strings, so one SHA-256 is enough to store them safely. */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/**
 * One API key of an organization, as listed: never the key, only its first characters. Keys
 * stored before names, prefixes and revocation were kept have `name` and `prefix` null and are live.
 */
export interface ApiKey {
  id: string;
  organization_id: string;
  name: string | null;
  /** The key's first characters (`apiKeyPrefix`), null for a key stored before they were kept. */
  prefix: string | null;
  created_at: Date;
  /** When it last authenticated, to `LAST_USED_RESOLUTION_MS`; null if never since it was kept. */
  last_used_at: Date | null;
  revoked_at: Date | null;
}

/** The longest prefix kept: `sk_` and 9 random characters of a generated key (54 of its 256 bits). */
export const API_KEY_PREFIX_LENGTH = 12;

/**
 * The characters of a key that are stored in clear to tell keys apart: the first 12, and never
 * more than a third of the key, so a short key chosen by hand (`--api-key`) is not given away.
 */
export function apiKeyPrefix(key: string): string {
  return key.slice(0, Math.min(API_KEY_PREFIX_LENGTH, Math.floor(key.length / 3)));
}

/** `last_used_at` is written at most this often per key (one write a minute, not one per request). */
export const LAST_USED_RESOLUTION_MS = 60_000;

export function lastUseIsStale(key: Pick<ApiKey, "last_used_at">, now: Date): boolean {
  return !key.last_used_at || now.getTime() - key.last_used_at.getTime() >= LAST_USED_RESOLUTION_MS;
}

/** The keys a `--key-prefix` names: those whose stored prefix begins with it (the listed prefix, or a shorter part). */
export function keysMatchingPrefix<K extends Pick<ApiKey, "prefix">>(keys: K[], prefix: string): K[] {
  return prefix ? keys.filter((k) => k.prefix !== null && k.prefix.startsWith(prefix)) : [];
}
