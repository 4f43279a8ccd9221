import { randomUUID } from "node:crypto";
import type { Connection } from "mongoose";
import { connectBus, makeEnvelope, publishEnvelope, Streams, Subjects, type Bus, type Envelope } from "@billing/bus";
import { silentLogger } from "@billing/logger";
import { connectMongo } from "@billing/mongo";
import { infraUrls, uniqueName, startOwnNats, dropTestDatabase } from "@billing/testkit";
import type { CatalogCopies } from "../src/domain/read-copies";
import { durableName, startReadCopies, type ReadCopies } from "../src/events/catalog-copies/start-read-copies";

/**
 * Catalog events as the catalog publishes them (services/catalog/src/events/*.ts): the whole
 * view of a billable metric or a plan; a subscription with plan_id, timezone and its plan.
 */
const C = Subjects.catalog;
export const at = (iso: string) => new Date(iso);

export function metricView(fields: Record<string, unknown> & { code: string; updated_at: string }) {
  return {
    svc_id: randomUUID(),
    name: fields.code,
    description: null,
    aggregation_type: "count_agg",
    field_name: null,
    recurring: false,
    rounding_function: null,
    rounding_precision: null,
    weighted_interval: null,
    expression: null,
    filters: [],
    created_at: fields.updated_at,
    deleted_at: null,
    ...fields,
  };
}

export function chargeView(metric: { svc_id: string; code: string }, fields: Record<string, unknown> = {}) {
  return {
    svc_id: randomUUID(),
    svc_billable_metric_id: metric.svc_id,
    billable_metric_code: metric.code,
    code: null,
    charge_model: "standard",
    pay_in_advance: true,
    invoiceable: false,
    prorated: false,
    min_amount_cents: 0,
    regroup_paid_fees: null,
    invoice_display_name: null,
    properties: { amount: "10" },
    filters: [],
    taxes: [],
    created_at: "2025-01-01T00:00:00.000Z",
    ...fields,
  };
}

export function planView(fields: Record<string, unknown> & { code: string; updated_at: string; charges: unknown[] }) {
  return {
    svc_id: randomUUID(),
    name: fields.code,
    description: null,
    invoice_display_name: null,
    interval: "monthly",
    amount_cents: 0,
    amount_currency: "EUR",
    trial_period: 0,
    pay_in_advance: false,
    bill_charges_monthly: null,
    bill_fixed_charges_monthly: null,
    taxes: [],
    minimum_commitment: null,
    usage_thresholds: [],
    fixed_charges: [],
    entitlements: [],
    metadata: null,
    created_at: fields.updated_at,
    deleted_at: null,
    ...fields,
  };
}

export function subscriptionView(
  plan: { svc_id: string; code: string },
  fields: Record<string, unknown> & { external_id: string },
) {
  return {
    svc_id: randomUUID(),
    svc_customer_id: randomUUID(),
    external_customer_id: `cus_${fields.external_id}`,
    billing_time: "calendar",
    name: null,
    plan_code: plan.code,
    status: "active",
    created_at: "2025-09-01T00:00:00.000Z",
    canceled_at: null,
    started_at: "2025-09-01T00:00:00.000Z",
    ending_at: null,
    subscription_at: "2025-09-01T00:00:00.000Z",
    terminated_at: null,
    plan_id: plan.svc_id,
    timezone: "UTC",
    ...fields,
  };
}

export const metricEvent = (
  type: "Created" | "Updated" | "Deleted",
  org: string,
  view: Record<string, unknown>,
  occurredAt = new Date(),
) =>
  makeEnvelope({ type: C[`billableMetric${type}`], organizationId: org, data: { billable_metric: view }, occurredAt });

export const planEvent = (
  type: "Updated" | "Deleted",
  org: string,
  plan: Record<string, unknown>,
  occurredAt = new Date(),
) => makeEnvelope({ type: C[`plan${type}`], organizationId: org, data: { plan }, occurredAt });

export const subscriptionEvent = (
  type: "Started" | "Updated" | "Terminated" | "Canceled",
  org: string,
  subscription: Record<string, unknown>,
  plan: Record<string, unknown>,
  occurredAt: Date,
) => makeEnvelope({ type: C[`subscription${type}`], organizationId: org, data: { subscription, plan }, occurredAt });

export async function publish(bus: Bus, ...envelopes: Envelope[]): Promise<void> {
  for (const envelope of envelopes) await publishEnvelope(bus.js, envelope);
}

/** The read copies as the service runs them, on a database and a durable consumer of their own. */
export interface CopiesFixture {
  readonly connection: Connection;
  readonly bus: Bus;
  /** What the service's code reads (memory, fed by the catalog's events). */
  readonly copies: CatalogCopies;
  /** A restart: the consumer stops, a new process connects to the same database. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function startCopiesFixture(
  label: string,
  options: { concurrency?: number } = {},
): Promise<CopiesFixture> {
  const dbName = uniqueName(label);
  const durablePrefix = uniqueName(label);
  // a NATS server of its own: the catalog stream's consumer does not replay every other test's history
  const ownNats = await startOwnNats();
  const bus = await connectBus({ url: ownNats?.url ?? infraUrls().natsUrl, name: `${label}-test` });
  let connection = await connectMongo({ url: infraUrls().mongoUrl, dbName });
  const start = () =>
    startReadCopies({ connection, bus, logger: silentLogger, durablePrefix, concurrency: options.concurrency });
  let readCopies: ReadCopies = await start();
  return {
    bus,
    get connection() {
      return connection;
    },
    get copies() {
      return readCopies.copies;
    },
    async restart() {
      await readCopies.stop();
      await connection.close();
      connection = await connectMongo({ url: infraUrls().mongoUrl, dbName });
      readCopies = await start();
    },
    async close() {
      await readCopies.stop();
      await bus.jsm.consumers.delete(Streams.catalog.name, durableName(durablePrefix)).catch(() => undefined);
      await dropTestDatabase(connection);
      await connection.close();
      await bus.close();
      await ownNats?.stop();
    },
  };
}
