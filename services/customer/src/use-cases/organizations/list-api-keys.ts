import { AppError } from "@billing/errors";
import type { ApiKey } from "../../domain/api-key";
import type { CustomerDeps } from "../deps";

/** An organization's API keys, live and revoked, oldest first: prefixes only, never keys or hashes. */
export async function listApiKeys(
  deps: Pick<CustomerDeps, "organizations">,
  organizationId: string,
): Promise<ApiKey[]> {
  if (!(await deps.organizations.findById(organizationId))) {
    throw new AppError("not_found", "organization_not_found", undefined, `organization ${organizationId} not found`);
  }
  return deps.organizations.listApiKeys(organizationId);
}
