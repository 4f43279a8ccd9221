import type { Envelope, Subjects } from "@billing/bus";
import { domainEvent, type EventDataInput } from "@billing/contracts";
import type { PlanView } from "../domain/views";

type Catalog = typeof Subjects.catalog;
export type PlanEventType = Catalog["planCreated"] | Catalog["planUpdated"] | Catalog["planDeleted"];

/** billing.catalog.plan.created|updated|deleted, carrying the plan's whole view, charges included (usage and invoicing keep copies). */
export function planEvent(
  type: PlanEventType,
  organizationId: string,
  plan: PlanView,
  now: Date,
  correlationId?: string,
): Envelope<EventDataInput<typeof type>> {
  return domainEvent(type, { organizationId, data: { plan }, occurredAt: now, correlationId: correlationId ?? null });
}
