import { Subjects, type Envelope } from "@billing/bus";
import { eventData, isEvent } from "@billing/contracts";
import type { InvoicingDeps } from "../use-cases/deps";

const CU = Subjects.customer;
export const CUSTOMER_SUBJECTS = [CU.customerCreated, CU.customerUpdated, CU.customerDeleted];

/** billing.customer.customer.*: the customer's copy, versioned by its updated_at. */
export function customerEventHandler(deps: InvoicingDeps) {
  return async (envelope: Envelope): Promise<void> => {
    if (!isEvent(envelope, CUSTOMER_SUBJECTS)) return;
    const { customer } = eventData(envelope);
    await deps.copies.putCustomer({ id: customer.svc_id, organization_id: envelope.organization_id, customer, version: Date.parse(customer.updated_at) });
  };
}
