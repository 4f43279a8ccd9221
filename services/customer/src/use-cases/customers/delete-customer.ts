import { Subjects } from "@billing/bus";
import { AppError } from "@billing/errors";
import type { Customer } from "../../domain/types";
import { customerEvent } from "../../events/customer-events";
import { withRefs, type CustomerWithRefs } from "./customer-refs";
import type { CustomerDeps } from "../deps";

/** DELETE /customers/{external_id}: a soft delete; the external id becomes free for a new customer. */
export async function deleteCustomer(
  deps: CustomerDeps,
  organizationId: string,
  externalId: string,
  requestId?: string,
): Promise<CustomerWithRefs> {
  const customer = await deps.customers.findLive(organizationId, externalId);
  if (!customer) throw AppError.notFound("customer");
  const now = deps.clock.now();
  const deleted: Customer = {
    ...customer,
    deleted_at: now,
    updated_at: new Date(Math.max(now.getTime(), customer.updated_at.getTime() + 1)),
  };
  const { refs } = await withRefs(deps, deleted, requestId);
  const event = customerEvent(Subjects.customer.customerDeleted, deleted, refs, now, requestId);
  if (!(await deps.customers.replace(deleted, customer.updated_at, event))) throw AppError.notFound("customer");
  await deps.publish(deleted.id, event);
  return { customer: deleted, refs };
}
