import { AppError } from "@billing/errors";
import type { PageRequest } from "@billing/mongo";
import { customerRefs, withRefs, type CustomerWithRefs } from "./customer-refs";
import type { CustomerDeps } from "./deps";

/** GET /customers/{external_id}, with its live taxes and applicable sections. */
export async function getCustomer(deps: CustomerDeps, organizationId: string, externalId: string, requestId?: string): Promise<CustomerWithRefs> {
  const customer = await deps.customers.findLive(organizationId, externalId);
  if (!customer) throw AppError.notFound("customer");
  return withRefs(deps, customer, requestId);
}

/** GET /customers: newest first; the page's taxes and sections come from one catalog call of each kind. */
export async function listCustomers(deps: CustomerDeps, organizationId: string, page: PageRequest, requestId?: string) {
  const { items, total } = await deps.customers.listLive(organizationId, page);
  const refs = await customerRefs(deps, organizationId, items, requestId);
  return { items: items.map((customer, i) => ({ customer, refs: refs[i]! })), total };
}
