import { AppError } from "@billing/errors";
import { applyBillingEntityPatch, unclearable, type BillingEntityPatch } from "../../domain/billing-entity-patch";
import type { BillingEntity } from "../../domain/types";
import type { CustomerDeps } from "../deps";

/**
 * PUT /billing_entities/{code}: changes the settings that were sent. Invoicing reads the entity at
 * each billing run (cached for a few seconds, a sandbox organization's for one clock step), so a
 * change applies to invoices finalized from then on; finalized ones keep their numbers.
 */
export async function updateBillingEntity(
  deps: Pick<CustomerDeps, "organizations" | "clock">,
  organizationId: string,
  code: string,
  patch: BillingEntityPatch,
): Promise<BillingEntity> {
  const refused = unclearable(patch);
  if (refused.length) throw AppError.validation(Object.fromEntries(refused.map((f) => [f, ["value_is_mandatory"]])));
  const entity = await deps.organizations.findBillingEntity(organizationId, code);
  if (!entity) throw AppError.notFound("billing_entity");
  const next = applyBillingEntityPatch(entity, patch, deps.clock.now());
  await deps.organizations.saveBillingEntity(next);
  return next;
}
