import { makeEnvelope, Subjects, type Envelope } from "@billing/bus";
import type { CustomerRefs } from "../domain/catalog-refs";
import { customerView, type CustomerView } from "../domain/views";
import type { Customer } from "../domain/types";

export type CustomerEventType = (typeof Subjects.customer)[keyof typeof Subjects.customer];
export interface CustomerEventData {
  customer: CustomerView;
}

/** billing.customer.customer.created|updated|deleted, carrying the customer's whole public view (taxes and sections resolved). */
export function customerEvent(
  type: CustomerEventType,
  customer: Customer,
  refs: CustomerRefs,
  now: Date,
  correlationId?: string,
): Envelope<CustomerEventData> {
  return makeEnvelope({
    type,
    organizationId: customer.organization_id,
    data: { customer: customerView(customer, refs) },
    occurredAt: now,
    correlationId: correlationId ?? null,
  });
}
