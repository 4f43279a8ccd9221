import type { Envelope, Subjects } from "@billing/bus";
import { domainEvent, type EventDataInput } from "@billing/contracts";
import type { CustomerRefs } from "../domain/catalog-refs";
import type { Customer } from "../domain/types";
import { customerView } from "../domain/views";

export type CustomerEventType = (typeof Subjects.customer)[keyof typeof Subjects.customer];
export type CustomerEventData = EventDataInput<CustomerEventType>;

/**
 * billing.customer.customer.created|updated|deleted, carrying the customer's whole public view
 * (taxes and sections resolved), checked against the subject's schema in @billing/contracts.
 */
export function customerEvent(
  type: CustomerEventType,
  customer: Customer,
  refs: CustomerRefs,
  now: Date,
  correlationId?: string,
): Envelope<CustomerEventData> {
  return domainEvent(type, {
    organizationId: customer.organization_id,
    data: { customer: customerView(customer, refs) },
    occurredAt: now,
    correlationId: correlationId ?? null,
  });
}
