import { randomUUID } from "node:crypto";
import type { Connection } from "mongoose";
import { connectBus, ensureStream, publishEnvelope, Streams, Subjects, type Bus } from "@billing/bus";
import { atFrozenTime, ManualClock } from "@billing/clock";
import {
  domainEvent,
  Rpc,
  type CustomerViewData,
  type EventDataInput,
  type InvoicingRpc,
  type PlanViewData,
  type ScheduledWorkRpc,
  type SubscriptionViewData,
} from "@billing/contracts";
import { RpcClient, startGrpcServer, type GrpcServerHandle } from "@billing/grpc";
import { createLogger, silentLogger } from "@billing/logger";
const testLogger = process.env.TEST_LOG
  ? createLogger({ service: "invoicing-test", level: process.env.TEST_LOG as "error" })
  : silentLogger;
import { connectMongo, initModels } from "@billing/mongo";
import { freePort, infraUrls, startOwnNats, uniqueName, waitFor, dropTestDatabase } from "@billing/testkit";
import { grpcPeers, wireInvoicing, type InvoicingWiring } from "../src/wiring";
import { startPeerStandIns, type PeerStandIns } from "./peer-stand-ins";

/**
 * The invoicing service wired through wiring.ts (as main.ts wires it), `replicas` times on one
 * database, on the real MongoDB and NATS: its consumers read the events a test publishes on the
 * bus, its gRPC server answers a typed client, and its peers are in-process stand-ins.
 */
export interface InvoicingHarness {
  connection: Connection;
  bus: Bus;
  clock: ManualClock;
  peers: PeerStandIns;
  replicas: InvoicingWiring[];
  invoicing: RpcClient<InvoicingRpc>;
  scheduled: RpcClient<ScheduledWorkRpc>;
  /** Publishes a customer event (as the customer service does), at a sandbox organization's time when `at` is given. */
  publishCustomer(organizationId: string, customer: CustomerViewData, at?: string): Promise<void>;
  /** Publishes a subscription event (as the catalog does). */
  publishSubscription(
    subject:
      | typeof Subjects.catalog.subscriptionStarted
      | typeof Subjects.catalog.subscriptionTerminated
      | typeof Subjects.catalog.subscriptionUpdated,
    organizationId: string,
    data: { subscription: SubscriptionViewData; plan: PlanViewData },
    at?: string,
  ): Promise<void>;
  /** Waits until every wired replica's consumers have handled what was published. */
  caughtUp(): Promise<void>;
  close(): Promise<void>;
}

export async function startInvoicingHarness(
  label: string,
  options: { replicas?: number; limits?: { batch?: number; concurrency?: number } } = {},
): Promise<InvoicingHarness> {
  const connection = await connectMongo({ url: infraUrls().mongoUrl, dbName: uniqueName(label) });
  // a NATS server of its own: its consumers start from the streams' beginning (as a new
  // deployment's do) and must not replay every other test's history
  const ownNats = await startOwnNats();
  const bus = await connectBus({ url: ownNats?.url ?? infraUrls().natsUrl, name: `${label}-test` });
  await ensureStream(bus.jsm, Streams.invoicing);
  const clock = new ManualClock("2024-01-01T00:00:00Z");
  const peers = await startPeerStandIns();
  const prefix = uniqueName(label);
  const replicas: InvoicingWiring[] = [];
  for (let i = 0; i < (options.replicas ?? 1); i++) {
    const peerClients = grpcPeers({
      usage: peers.address,
      customer: peers.address,
      catalog: peers.address,
      wallet: peers.address,
    });
    replicas.push(
      await wireInvoicing(connection, {
        bus,
        clock,
        logger: testLogger,
        peers: peerClients,
        durablePrefix: `${prefix}_${i}`,
        limits: options.limits,
      }),
    );
  }
  await initModels(connection);
  const server: GrpcServerHandle = await startGrpcServer({
    host: "127.0.0.1",
    port: await freePort(),
    logger: testLogger,
    bindings: replicas[0]!.bindings,
  });
  const address = `127.0.0.1:${server.port}`;
  const invoicing = new RpcClient(Rpc.invoicing, address, 30_000);
  const scheduled = new RpcClient(Rpc.scheduledWork, address, 60_000);
  const publish = async (make: () => Parameters<typeof publishEnvelope>[1], at?: string) => {
    await publishEnvelope(bus.js, at ? atFrozenTime(new Date(at), make) : make());
  };
  const caughtUp = () => Promise.all(replicas.map((r) => r.deps.caughtUp())).then(() => undefined);
  await caughtUp();
  return {
    connection,
    bus,
    clock,
    peers,
    replicas,
    invoicing,
    scheduled,
    caughtUp,
    publishCustomer: (organizationId, customer, at) =>
      publish(
        () =>
          domainEvent(Subjects.customer.customerCreated, {
            organizationId,
            data: { customer } as EventDataInput<typeof Subjects.customer.customerCreated>,
            occurredAt: new Date(at ?? customer.updated_at),
          }),
        at,
      ),
    publishSubscription: (subject, organizationId, data, at) =>
      publish(
        () =>
          domainEvent(subject, {
            organizationId,
            data: data as EventDataInput<typeof subject>,
            occurredAt: new Date(at ?? clock.now().toISOString()),
          }),
        at,
      ),
    async close() {
      invoicing.close();
      scheduled.close();
      await server.shutdown();
      for (const r of replicas) {
        await r.stop();
        r.deps.usage.close();
        r.deps.billingEntities.close();
        r.deps.appliedCoupons.close();
        r.deps.testClocks?.close();
      }
      await peers.stop();
      await dropTestDatabase(connection);
      await connection.close();
      await bus.close();
      await ownNats?.stop();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The views the producers publish (contracts' schemas), for one sandbox organization's stories.

export function customerView(overrides: Partial<CustomerViewData> = {}): CustomerViewData {
  const id = overrides.svc_id ?? randomUUID();
  return {
    svc_id: id,
    external_id: `cus_${id.slice(0, 8)}`,
    sequential_id: 1,
    slug: "ACM-4C1D-001",
    billing_entity_code: "default",
    name: "Acme",
    currency: "EUR",
    country: null,
    email: null,
    timezone: null,
    applicable_timezone: "UTC",
    net_payment_term: null,
    finalize_zero_amount_invoice: "inherit",
    taxes: [],
    billing_configuration: {
      invoice_grace_period: null,
      subscription_invoice_issuing_date_anchor: null,
      subscription_invoice_issuing_date_adjustment: null,
    },
    created_at: "2023-12-01T00:00:00.000Z",
    updated_at: "2023-12-01T00:00:00.000Z",
    deleted_at: null,
    ...overrides,
  };
}

export function planView(overrides: Partial<PlanViewData> = {}): PlanViewData {
  return {
    svc_id: `plan_${randomUUID().slice(0, 8)}`,
    name: "Starter",
    code: "starter",
    description: null,
    invoice_display_name: null,
    interval: "monthly",
    amount_cents: 10_000,
    amount_currency: "EUR",
    trial_period: 0,
    pay_in_advance: false,
    bill_charges_monthly: null,
    bill_fixed_charges_monthly: null,
    taxes: [],
    minimum_commitment: null,
    usage_thresholds: [],
    charges: [
      {
        svc_id: "ch_calls",
        svc_billable_metric_id: "bm_calls",
        billable_metric_code: "calls",
        code: null,
        charge_model: "standard",
        pay_in_advance: false,
        invoiceable: true,
        prorated: false,
        min_amount_cents: 0,
        regroup_paid_fees: null,
        invoice_display_name: null,
        properties: { amount: "0.5" },
        filters: [],
        taxes: [],
        created_at: null,
      },
    ],
    fixed_charges: [],
    created_at: "2023-12-01T00:00:00.000Z",
    updated_at: "2023-12-01T00:00:00.000Z",
    deleted_at: null,
    ...overrides,
  };
}

export function subscriptionView(
  customer: CustomerViewData,
  plan: PlanViewData,
  overrides: Partial<SubscriptionViewData> = {},
): SubscriptionViewData {
  const id = overrides.svc_id ?? randomUUID();
  return {
    svc_id: id,
    external_id: `sub_${id.slice(0, 8)}`,
    svc_customer_id: customer.svc_id,
    external_customer_id: customer.external_id,
    name: null,
    plan_code: plan.code,
    plan_id: plan.svc_id,
    status: "active",
    billing_time: "calendar",
    subscription_at: "2024-01-01T00:00:00.000Z",
    started_at: "2024-01-01T00:00:00.000Z",
    ending_at: null,
    terminated_at: null,
    canceled_at: null,
    trial_ended_at: null,
    previous_plan_code: null,
    next_plan_code: null,
    downgrade_plan_date: null,
    on_termination_credit_note: null,
    on_termination_invoice: "generate",
    created_at: "2024-01-01T00:00:00.000Z",
    timezone: customer.applicable_timezone,
    ...overrides,
  };
}

/** Waits for a condition on the service's state (consumers and billing run in the background). */
export const eventually = <T>(check: () => Promise<T> | T, what: string) => waitFor(check, { timeoutMs: 30_000, what });
