import { createHash, randomBytes } from "node:crypto";

/** A new API key: 32 random bytes, URL-safe. Only its hash is stored. */
export function generateApiKey(): string {
  return `sk_${randomBytes(32).toString("base64url")}`;
}

/** Keys are high-entropy random strings, so one SHA-256 is enough to store them safely. */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}
