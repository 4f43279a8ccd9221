import type { CustomerViewData } from "@billing/contracts";
import { billDueSubscriptions } from "../billing/bill-due-subscriptions";
import type { BillingDeps } from "../billing/deps";

/**
 * billing.customer.customer.*: the customer's copy, versioned by its updated_at (a late or repeated
 * event changes nothing); a billing that waited for it is done now.
 */
export async function copyCustomer(
  deps: BillingDeps,
  organizationId: string,
  customer: CustomerViewData,
): Promise<void> {
  await deps.copies.putCustomer({
    id: customer.svc_id,
    organization_id: organizationId,
    customer,
    version: Date.parse(customer.updated_at),
  });
  if (await deps.copies.takeWaiting(organizationId, customer.svc_id)) {
    await billDueSubscriptions(deps, { organizationId, customerId: customer.svc_id });
  }
}
