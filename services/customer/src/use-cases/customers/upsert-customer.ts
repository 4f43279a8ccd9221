import { randomUUID } from "node:crypto";
import { Subjects } from "@billing/bus";
import { AppError } from "@billing/errors";
import { LOST_RACE, retryOnLostRace } from "@billing/mongo";
import { applyCustomerPatch, customerSlug, newCustomer, type CustomerPatch } from "../../domain/customer-patch";
import { customerViolations } from "../../domain/customer-rules";
import { sectionChoiceViolations } from "../../domain/invoice-custom-section-rules";
import { customerEvent } from "../../events/customer-events";
import { applyCatalogChoices, resolveCatalogChoices, type CatalogChoices } from "./catalog-choices";
import { withRefs, type CustomerWithRefs } from "./customer-refs";
import type { CustomerDeps } from "../deps";

/**
 * POST /customers: creates the customer of that external_id in the organization,
 * or updates it. Validates the resulting customer, then resolves the taxes and sections
 * it names in the catalog (an unknown tax code: 404), before anything is stored.
 */
export async function upsertCustomer(
  deps: CustomerDeps,
  input: { organizationId: string; externalId: string; patch: CustomerPatch; requestId?: string },
): Promise<CustomerWithRefs & { created: boolean }> {
  const organization = await deps.organizations.findById(input.organizationId);
  if (!organization) throw AppError.unauthenticated();
  let choices: CatalogChoices | undefined;

  return retryOnLostRace("customer", async () => {
    const now = deps.clock.now();
    const existing = await deps.customers.findLive(input.organizationId, input.externalId);
    const entity =
      input.patch.billing_entity_code !== undefined
        ? await deps.organizations.findBillingEntity(input.organizationId, input.patch.billing_entity_code)
        : existing
          ? { id: existing.billing_entity_id, code: existing.billing_entity_code }
          : await deps.organizations.defaultBillingEntity(input.organizationId);
    if (!entity) throw AppError.notFound("billing_entity");

    const base =
      existing ??
      newCustomer({
        id: randomUUID(),
        organizationId: input.organizationId,
        externalId: input.externalId,
        sequentialId: 0,
        documentNumberPrefix: organization.document_number_prefix,
        billingEntity: entity,
        now,
      });
    const patched = applyCustomerPatch(base, input.patch, now);
    patched.billing_entity_id = entity.id;
    patched.billing_entity_code = entity.code;
    const violations = { ...customerViolations(patched), ...sectionChoiceViolations(input.patch) };
    if (Object.keys(violations).length) throw AppError.validation(violations);
    choices ??= await resolveCatalogChoices(deps, input.organizationId, input.patch, input.requestId);
    const next = applyCatalogChoices(patched, input.patch, choices);
    const { refs } = await withRefs(deps, next, input.requestId, choices);

    if (existing) {
      // keep updated_at strictly increasing so the optimistic check below always sees a change
      if (next.updated_at.getTime() <= existing.updated_at.getTime())
        next.updated_at = new Date(existing.updated_at.getTime() + 1);
      const event = customerEvent(Subjects.customer.customerUpdated, next, refs, now, input.requestId);
      if (await deps.customers.replace(next, existing.updated_at, event)) {
        await deps.publish(next.id, event);
        return { customer: next, refs, created: false };
      }
      return LOST_RACE; // another request changed it: read again and reapply
    }

    next.sequential_id = await deps.customers.nextSequentialId(input.organizationId);
    next.slug = customerSlug(organization.document_number_prefix, next.sequential_id);
    const event = customerEvent(Subjects.customer.customerCreated, next, refs, now, input.requestId);
    if (await deps.customers.insert(next, event)) {
      await deps.publish(next.id, event);
      return { customer: next, refs, created: true };
    }
    return LOST_RACE; // created concurrently by another request: retry as an update
  });
}
