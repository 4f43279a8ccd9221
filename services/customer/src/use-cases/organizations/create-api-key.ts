import { randomUUID } from "node:crypto";
import { AppError } from "@billing/errors";
import { apiKeyPrefix, generateApiKey, hashApiKey, type ApiKey } from "../../domain/api-key";
import type { CustomerDeps } from "../deps";

/** A new API key for an existing organization (beside its others); the key is returned once, only its hash is stored. */
export async function createApiKey(
  deps: Pick<CustomerDeps, "organizations" | "clock">,
  input: { organizationId: string; name?: string },
): Promise<{ key: ApiKey; apiKey: string }> {
  const organization = await deps.organizations.findById(input.organizationId);
  if (!organization)
    throw new AppError(
      "not_found",
      "organization_not_found",
      undefined,
      `organization ${input.organizationId} not found`,
    );
  const name = input.name?.trim() || null;
  const apiKey = generateApiKey();
  const key: ApiKey = {
    id: randomUUID(),
    organization_id: organization.id,
    name,
    prefix: apiKeyPrefix(apiKey),
    created_at: deps.clock.now(),
    last_used_at: null,
    revoked_at: null,
  };
  await deps.organizations.addApiKey(key, hashApiKey(apiKey));
  return { key, apiKey };
}
