import { AppError } from "@billing/errors";
import type { CustomerDeps } from "../deps";
import { withRefs, type CustomerWithRefs } from "./customer-refs";

/** GET /customers/{external_id}, with its live taxes and applicable sections. */
export async function getCustomer(
  deps: CustomerDeps,
  organizationId: string,
  externalId: string,
  requestId?: string,
): Promise<CustomerWithRefs> {
  const customer = await deps.customers.findLive(organizationId, externalId);
  if (!customer) throw AppError.notFound("customer");
  return withRefs(deps, customer, requestId);
}
