import type { BillingEntity } from "../../domain/types";
import type { CustomerDeps } from "../deps";

/** GET /billing_entities. */
export function listBillingEntities(
  deps: Pick<CustomerDeps, "organizations">,
  organizationId: string,
): Promise<BillingEntity[]> {
  return deps.organizations.listBillingEntities(organizationId);
}
