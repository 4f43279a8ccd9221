import { AppError } from "@billing/errors";
import type { BillingEntity } from "../../domain/types";
import type { CustomerDeps } from "../deps";

/** GET /billing_entities/{code}. */
export async function getBillingEntity(
  deps: Pick<CustomerDeps, "organizations">,
  organizationId: string,
  code: string,
): Promise<BillingEntity> {
  const entity = await deps.organizations.findBillingEntity(organizationId, code);
  if (!entity) throw AppError.notFound("billing_entity");
  return entity;
}
