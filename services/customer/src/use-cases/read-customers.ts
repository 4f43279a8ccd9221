import { AppError } from "@billing/errors";
import type { PageRequest } from "@billing/mongo";
import type { Customer } from "../domain/types";
import type { CustomerDeps } from "./deps";

export async function getCustomer(deps: CustomerDeps, organizationId: string, externalId: string): Promise<Customer> {
  const customer = await deps.customers.findLive(organizationId, externalId);
  if (!customer) throw AppError.notFound("customer");
  return customer;
}

export function listCustomers(deps: CustomerDeps, organizationId: string, page: PageRequest) {
  return deps.customers.listLive(organizationId, page);
}
