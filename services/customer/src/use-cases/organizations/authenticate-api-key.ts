import { AppError } from "@billing/errors";
import { hashApiKey, lastUseIsStale } from "../../domain/api-key";
import type { Organization } from "../../domain/types";
import type { CustomerDeps } from "../deps";

/**
 * The organization a live API key belongs to; an unknown or revoked key is 401. The key's
 * `last_used_at` is written at most once a minute (`LAST_USED_RESOLUTION_MS`).
 */
export async function authenticateApiKey(
  deps: Pick<CustomerDeps, "organizations" | "clock">,
  apiKey: string,
): Promise<Organization> {
  const key = apiKey ? await deps.organizations.findApiKeyByHash(hashApiKey(apiKey)) : null;
  const organization = key && !key.revoked_at ? await deps.organizations.findById(key.organization_id) : null;
  if (!key || !organization) throw AppError.unauthenticated();
  const now = deps.clock.now();
  if (lastUseIsStale(key, now)) await deps.organizations.touchApiKey(key.id, now);
  return organization;
}
