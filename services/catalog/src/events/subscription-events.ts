import type { Envelope, Subjects } from "@billing/bus";
import { domainEvent, type EventDataInput } from "@billing/contracts";
import type { SubscriptionView } from "../domain/subscription-view";
import type { PlanView } from "../domain/views";

type Catalog = typeof Subjects.catalog;
export type SubscriptionEventType =
  | Catalog["subscriptionStarted"]
  | Catalog["subscriptionUpdated"]
  | Catalog["subscriptionTerminated"]
  | Catalog["subscriptionCanceled"];

/**
 * Enough for a read copy (usage, invoicing): the subscription's view, the plan it is billed on
 * (a private plan included, with its charges) and the customer's time zone the periods use.
 */
export interface SubscriptionEventData {
  subscription: SubscriptionView & { plan_id: string; timezone: string };
  plan: PlanView;
}

export function subscriptionEvent(
  type: SubscriptionEventType,
  organizationId: string,
  data: SubscriptionEventData,
  now: Date,
  correlationId?: string,
): Envelope<EventDataInput<typeof type>> {
  return domainEvent(type, { organizationId, data, occurredAt: now, correlationId: correlationId ?? null });
}
