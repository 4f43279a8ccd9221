import { AppError } from "@billing/errors";
import { hashApiKey } from "../../domain/api-key";
import type { Organization } from "../../domain/types";
import type { CustomerDeps } from "../deps";

/** The organization an API key belongs to; an unknown key is 401. */
export async function authenticateApiKey(deps: Pick<CustomerDeps, "organizations">, apiKey: string): Promise<Organization> {
  const organization = apiKey ? await deps.organizations.findByKeyHash(hashApiKey(apiKey)) : null;
  if (!organization) throw AppError.unauthenticated();
  return organization;
}
