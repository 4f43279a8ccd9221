import type { PageRequest } from "@billing/mongo";
import type { CustomerDeps } from "../deps";
import { customerRefs } from "./customer-refs";

/** GET /customers: newest first; the page's taxes and sections come from one catalog call of each kind. */
export async function listCustomers(deps: CustomerDeps, organizationId: string, page: PageRequest, requestId?: string) {
  const { items, total } = await deps.customers.listLive(organizationId, page);
  const refs = await customerRefs(deps, organizationId, items, requestId);
  return { items: items.map((customer, i) => ({ customer, refs: refs[i]! })), total };
}
