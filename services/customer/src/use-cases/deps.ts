import type { Envelope } from "@billing/bus";
import type { Clock } from "@billing/clock";
import type { Catalog } from "../peers/catalog";
import type { ScheduledWorkPeer } from "../peers/scheduled-work";
import type { CustomerRepository } from "../persistence/customer-repository";
import type { OrganizationRepository } from "../persistence/organization-repository";

/** What every use case of the customer service is given. */
export interface CustomerDeps {
  customers: CustomerRepository;
  organizations: OrganizationRepository;
  clock: Clock;
  /** The catalog service: the taxes and invoice custom sections customers name. */
  catalog: Catalog;
  /** The services with time-driven work, in the order a test clock step runs them. */
  scheduledWork: ScheduledWorkPeer[];
  /** Publishes every event still in the outbox (before a test clock step, so peers see them). */
  flushEvents(): Promise<void>;
  /** Moves advancing test clocks in the background. */
  testClocks: { drive(organizationId: string): void };
  /** Publishes an event already written to a customer's outbox. */
  publish(customerId: string, event: Envelope): Promise<void>;
}
