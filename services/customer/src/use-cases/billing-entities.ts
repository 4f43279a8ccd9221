import { AppError } from "@billing/errors";
import type { BillingEntity } from "../domain/types";
import type { CustomerDeps } from "./deps";

export async function getBillingEntity(deps: CustomerDeps, organizationId: string, code: string): Promise<BillingEntity> {
  const entity = await deps.organizations.findBillingEntity(organizationId, code);
  if (!entity) throw AppError.notFound("billing_entity");
  return entity;
}

export function listBillingEntities(deps: CustomerDeps, organizationId: string): Promise<BillingEntity[]> {
  return deps.organizations.listBillingEntities(organizationId);
}
