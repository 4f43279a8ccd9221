import type { ServiceName } from "@billing/testkit";

/**
 * The one platform the end-to-end files of the `e2e` project share (started by
 * tests/setup/shared-platform.global.ts, handed to every file through vitest's `provide`/`inject`).
 * Each file works in organizations of its own, so files run side by side on it; a file that kills
 * services, counts whole collections or needs settings of its own runs in `e2e-own` instead.
 */
export interface SharedPlatform {
  baseUrl: string;
  gatewayPort: number;
  env: Record<ServiceName, Record<string, string>>;
  mongoUrl: string;
  natsUrl: string;
  dbPrefix: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    sharedPlatform: SharedPlatform | undefined;
  }
}

/** The signing secret of the shared platform's document links (documents.test.ts signs with it too). */
export const SHARED_DOCUMENT_LINK_SECRET = "e2e-documents-secret-0123456789";

/**
 * The shared platform's settings: what every end-to-end file expects (test receivers on 127.0.0.1,
 * no per-organization rate limit) and the faster pacing some files need (webhook retries, refund
 * rechecks), which the others do not notice. A file asking for a setting outside this list, or for
 * another value of one, gets a platform of its own (tests/support/platform.ts, `startE2E`).
 */
export const SHARED_PLATFORM_ENV: Readonly<Record<string, string>> = {
  WEBHOOK_ALLOW_PRIVATE: "1",
  RATE_LIMIT_PER_S: "0",
  DOCUMENT_LINK_SECRET: SHARED_DOCUMENT_LINK_SECRET,
  WEBHOOK_RETRY_SCALE: "0.001",
  PAYMENT_REFUND_RECHECK_MS: "1000",
  // a revoked key is refused within half a second (api-keys.test.ts)
  API_KEY_CACHE_TTL_MS: "500",
  // every file sends wrong keys on purpose from 127.0.0.1: together they would pass the per-address
  // limit of failed authentications; rate-limits.test.ts checks it on a platform of its own
  AUTH_FAILURE_LIMIT: "0",
  // the gateway's deadline for a backend's answer: 5 s in production; a test run on two busy cores
  // queues requests for longer than that, and a 504 there says nothing about the platform
  GRPC_DEADLINE_MS: "20000",
};

/** True when a file's settings are all the shared platform's own. */
export function fitsSharedPlatform(env: Readonly<Record<string, string>> = {}): boolean {
  return Object.entries(env).every(([key, value]) => SHARED_PLATFORM_ENV[key] === value);
}
