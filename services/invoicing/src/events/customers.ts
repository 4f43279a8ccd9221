import { Subjects, type Envelope } from "@billing/bus";
import { eventData, isEvent } from "@billing/contracts";
import { copyCustomer } from "../use-cases/copies/copy-customer";
import type { BillingDeps } from "../use-cases/billing/deps";

const CU = Subjects.customer;
export const CUSTOMER_SUBJECTS = [CU.customerCreated, CU.customerUpdated, CU.customerDeleted];

/** billing.customer.customer.*, parsed with the contract's schema: the customer's copy. */
export function customerEventHandler(deps: BillingDeps) {
  return async (envelope: Envelope): Promise<void> => {
    if (!isEvent(envelope, CUSTOMER_SUBJECTS)) return;
    await copyCustomer(deps, envelope.organization_id, eventData(envelope).customer);
  };
}
