import { AppError } from "@billing/errors";
import { keysMatchingPrefix, type ApiKey } from "../../domain/api-key";
import type { CustomerDeps } from "../deps";

const notFound = (organizationId: string, what: string) =>
  new AppError("not_found", "api_key_not_found", undefined, `organization ${organizationId} has no API key ${what}`);

/**
 * Revokes one of the organization's API keys, named by its id or by its prefix (as listed). The key
 * stays stored, listed with its `revoked_at`, and is refused from then on (the gateway forgets it
 * within its cache TTL). Another organization's key is not found; a prefix matching several live
 * keys is refused. Revoking a revoked key changes nothing (`already_revoked`).
 */
export async function revokeApiKey(
  deps: Pick<CustomerDeps, "organizations" | "clock">,
  input: { organizationId: string; keyId?: string; prefix?: string },
): Promise<{ key: ApiKey; alreadyRevoked: boolean }> {
  const { organizationId } = input;
  let target: ApiKey | null;
  if (input.keyId) {
    target = await deps.organizations.findApiKey(organizationId, input.keyId);
    if (!target) throw notFound(organizationId, `with id ${input.keyId}`);
  } else if (input.prefix) {
    const matching = keysMatchingPrefix(await deps.organizations.listApiKeys(organizationId), input.prefix);
    const live = matching.filter((k) => !k.revoked_at);
    if (live.length > 1) {
      throw new AppError(
        "unprocessable",
        "api_key_prefix_ambiguous",
        undefined,
        `prefix ${input.prefix} matches ${live.length} live keys (${live.map((k) => k.id).join(", ")}): give a longer prefix or the key id`,
      );
    }
    target = live[0] ?? matching[0] ?? null;
    if (!target) throw notFound(organizationId, `with prefix ${input.prefix}`);
  } else {
    throw AppError.validation({ key_id: ["value_is_mandatory"] });
  }
  if (target.revoked_at) return { key: target, alreadyRevoked: true };
  const revoked = await deps.organizations.revokeApiKey(organizationId, target.id, deps.clock.now());
  if (revoked) return { key: revoked, alreadyRevoked: false };
  // revoked meanwhile by someone else
  const current = await deps.organizations.findApiKey(organizationId, target.id);
  if (!current) throw notFound(organizationId, `with id ${target.id}`);
  return { key: current, alreadyRevoked: true };
}
