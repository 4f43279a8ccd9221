import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Connection } from "mongoose";
import { connectBus, derivedUuid, ensureStream, publishEnvelope, Streams, Subjects, type Bus } from "@billing/bus";
import { ManualClock } from "@billing/clock";
import { domainEvent, Rpc, type UsageEventData, type EventDataInput } from "@billing/contracts";
import { bind, startGrpcServer, type GrpcServerHandle } from "@billing/grpc";
import { createLogger, silentLogger } from "@billing/logger";
import { connectMongo, initModels } from "@billing/mongo";
import { freePort, infraUrls, startOwnNats, uniqueName, waitFor, dropTestDatabase } from "@billing/testkit";
// the usage service's side of the seam, real (its MongoDB store of bucket states and answers)
import { advanceFeeHandlers } from "../../usage/src/grpc/advance-fee-handlers";
import { AdvanceStore } from "../../usage/src/persistence/advance-store";
import { MemoryCopies } from "../../usage/src/persistence/read-copies/memory-copies";
import { priceAdvanceEvents } from "../../usage/src/use-cases/advance/price-advance-events";
import { grpcAdvanceFees } from "../src/peers/advance-fees";
import { grpcPeers, wireInvoicing, type InvoicingWiring } from "../src/wiring";
import { customerView, planView, subscriptionView } from "./harness";
import { startPeerStandIns, type PeerStandIns } from "./peer-stand-ins";

// Pay-in-advance fees exactly once (billing-rules §1.12): invoicing's consumer of
// billing.usage.event.ingested, two replicas on one database, the usage service's AdvanceFeeService
// on its own database, the real NATS and MongoDB. Every envelope arrives twice (a redelivery:
// another copy of the same envelope), and one was already priced by the usage service before
// invoicing ever saw it (a crash after the usage service answered): one fee per event and charge.
const ORG = randomUUID();
const ENVELOPES = 8;
const PER_ENVELOPE = 50;

let usageConnection: Connection;
let invoicingConnection: Connection;
let bus: Bus;
let ownNats: Awaited<ReturnType<typeof startOwnNats>>;
let usageServer: GrpcServerHandle;
let peers: PeerStandIns;
const replicas: InvoicingWiring[] = [];
let store: AdvanceStore;
const copies = new MemoryCopies();

const customer = customerView({ svc_id: randomUUID() });
const plan = planView({
  amount_cents: 0,
  charges: [
    // waiting fees: 1.00 per unit above the period's high-water mark of `gb`
    {
      svc_id: "ch_storage",
      svc_billable_metric_id: "bm_storage",
      billable_metric_code: "storage",
      code: null,
      charge_model: "standard",
      pay_in_advance: true,
      invoiceable: false,
      prorated: false,
      min_amount_cents: 0,
      regroup_paid_fees: null,
      invoice_display_name: null,
      properties: { amount: "1" },
      filters: [],
      taxes: [],
      created_at: null,
    },
    // one invoice per event: 0.50 per call
    {
      svc_id: "ch_calls",
      svc_billable_metric_id: "bm_calls",
      billable_metric_code: "calls",
      code: null,
      charge_model: "standard",
      pay_in_advance: true,
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
});
const subscription = subscriptionView(customer, plan);

const metric = (svc_id: string, code: string, aggregation_type: string, field_name: string | null) => ({
  value: {
    organization_id: ORG,
    svc_id,
    name: code,
    code,
    description: null,
    aggregation_type,
    field_name,
    recurring: false,
    rounding_function: null,
    rounding_precision: null,
    weighted_interval: null,
    expression: null,
    filters: [],
    created_at: "2023-12-01T00:00:00.000Z",
    updated_at: "2023-12-01T00:00:00.000Z",
    deleted_at: null,
  },
  version: 1,
});

/** Envelope i: storage events of +5 then −3 gb alternately, and every tenth event a call (in January 2024). */
function envelope(i: number) {
  const events: UsageEventData[] = Array.from({ length: PER_ENVELOPE }, (_, j) => {
    const n = i * PER_ENVELOPE + j;
    const call = n % 10 === 0;
    return {
      svc_id: randomUUID(),
      transaction_id: `tx_${n}`,
      external_subscription_id: subscription.external_id,
      code: call ? "calls" : "storage",
      timestamp: new Date(Date.UTC(2024, 0, 2) + n * 60_000).toISOString(),
      properties: call ? {} : { gb: n % 2 === 0 ? 5 : -3 },
      precise_total_amount_cents: null,
      created_at: "2024-01-02T00:00:00.000Z",
    } as UsageEventData & { precise_total_amount_cents: null; created_at: string };
  });
  return domainEvent(Subjects.usage.eventIngested, {
    organizationId: ORG,
    id: derivedUuid(`${ORG}|env|${i}`),
    occurredAt: new Date("2024-01-02T00:00:00Z"),
    data: { batch_id: `batch_${i}`, events } as unknown as EventDataInput<typeof Subjects.usage.eventIngested>,
  });
}

beforeAll(async () => {
  const urls = infraUrls();
  usageConnection = await connectMongo({ url: urls.mongoUrl, dbName: uniqueName("advance_usage") });
  invoicingConnection = await connectMongo({ url: urls.mongoUrl, dbName: uniqueName("advance_invoicing") });
  ownNats = await startOwnNats();
  bus = await connectBus({ url: ownNats?.url ?? urls.natsUrl, name: "advance-fees-test" });
  for (const s of [Streams.usage, Streams.invoicing, Streams.catalog, Streams.customer]) await ensureStream(bus.jsm, s);

  copies.putMetric(metric("bm_storage", "storage", "sum_agg", "gb"));
  copies.putMetric(metric("bm_calls", "calls", "count_agg", null));
  copies.putPlan({ value: { ...plan, organization_id: ORG }, version: 1 });
  copies.putSubscription({ value: { ...subscription, organization_id: ORG }, version: 1 });
  store = new AdvanceStore(usageConnection);
  usageServer = await startGrpcServer({
    host: "127.0.0.1",
    port: await freePort(),
    logger: silentLogger,
    bindings: [bind(Rpc.advanceFees, advanceFeeHandlers({ copies, store, cache: new Map() }))],
  });
  peers = await startPeerStandIns();
  const clock = new ManualClock("2024-01-02T00:00:00Z");
  const prefix = uniqueName("advance");
  for (let i = 0; i < 2; i++) {
    const peerClients = {
      ...grpcPeers({ usage: peers.address, customer: peers.address, catalog: peers.address, wallet: peers.address }),
      advanceFees: grpcAdvanceFees(`127.0.0.1:${usageServer.port}`),
    };
    // two replicas of one deployment: one durable consumer, shared
    replicas.push(
      await wireInvoicing(invoicingConnection, {
        bus,
        clock,
        logger: process.env.TEST_LOG ? createLogger({ service: "advance-test", level: "warn" }) : silentLogger,
        peers: peerClients,
        durablePrefix: prefix,
      }),
    );
  }
  await initModels(invoicingConnection);
  await publishEnvelope(
    bus.js,
    domainEvent(Subjects.customer.customerCreated, {
      organizationId: ORG,
      data: { customer },
      occurredAt: new Date(customer.updated_at),
    }),
  );
  await publishEnvelope(
    bus.js,
    domainEvent(Subjects.catalog.subscriptionStarted, {
      organizationId: ORG,
      data: { subscription, plan } as EventDataInput<typeof Subjects.catalog.subscriptionStarted>,
      occurredAt: new Date("2024-01-01T00:00:00Z"),
    }),
  );
  await waitFor(
    async () =>
      (await replicas[0]!.deps.copies.subscription(subscription.svc_id)) &&
      (await replicas[0]!.deps.copies.customer(customer.svc_id)),
    { what: "copies" },
  );
}, 60_000);

afterAll(async () => {
  for (const r of replicas) await r.stop();
  await usageServer?.shutdown();
  await peers?.stop();
  await dropTestDatabase(usageConnection);
  await dropTestDatabase(invoicingConnection);
  await usageConnection?.close();
  await invoicingConnection?.close();
  await bus?.close();
  await ownNats?.stop();
});

describe("pay-in-advance fees from ingested usage", () => {
  it("creates one fee per event and charge, one invoice per invoiceable fee, whatever the redeliveries and replicas", async () => {
    const envelopes = Array.from({ length: ENVELOPES }, (_, i) => envelope(i));
    // the usage service already answered envelope 3 (and moved its buckets) before a crash: asked again, it answers the same fees
    const first = await priceAdvanceEvents(
      { copies, store },
      {
        organizationId: ORG,
        envelopeId: envelopes[3]!.id,
        events: (envelopes[3]!.data as { events: UsageEventData[] }).events,
      },
    );
    expect(first).toHaveLength(PER_ENVELOPE);
    // every envelope twice (each copy its own message: a redelivery), in stream order
    for (const e of envelopes) {
      await bus.js.publish(Subjects.usage.eventIngested, Buffer.from(JSON.stringify(e)));
      await bus.js.publish(Subjects.usage.eventIngested, Buffer.from(JSON.stringify(e)));
    }
    await Promise.all(replicas.map((r) => r.deps.caughtUp()));

    const fees = invoicingConnection.db!.collection("advance_fees");
    const all = await fees.find({}).toArray();
    const events = ENVELOPES * PER_ENVELOPE;
    const calls = events / 10;
    expect(all).toHaveLength(events);
    expect(new Set(all.map((f) => f.event_transaction_id)).size).toBe(events);

    // storage: +5, −3 alternately (calls in between take nothing): only what raises the high-water mark is paid
    const storage = all.filter((f) => f.billable_metric_code === "storage");
    // the mark starts at the first event's value (here −3: the first +5 pays 5), then each event pays what it raises it by
    let level: number | null = null;
    let max = 0;
    let paid = 0;
    for (let n = 0; n < events; n++) {
      if (n % 10 === 0) continue;
      const gb = n % 2 === 0 ? 5 : -3;
      if (level === null) {
        level = gb;
        max = gb;
        paid += Math.max(gb, 0);
        continue;
      }
      level += gb;
      if (level > max) {
        paid += level - max;
        max = level;
      }
    }
    expect(
      storage.reduce((s, f) => s + (JSON.parse(f.fee_json as string) as { amount_cents: number }).amount_cents, 0),
    ).toBe(paid * 100);
    expect(storage.every((f) => f.invoice_id === null)).toBe(true);

    // calls: each on its own finalized invoice, numbered once
    const invoiced = all.filter((f) => f.billable_metric_code === "calls");
    expect(invoiced).toHaveLength(calls);
    const invoices = await invoicingConnection.db!.collection("invoices").find({ organization_id: ORG }).toArray();
    expect(invoices).toHaveLength(calls);
    expect(
      invoices.every(
        (i) => i.status === "finalized" && (i.amounts as { total_amount_cents: number }).total_amount_cents === 50,
      ),
    ).toBe(true);
    expect(new Set(invoices.map((i) => i.number)).size).toBe(calls);
    expect(new Set(invoices.map((i) => i._id))).toEqual(new Set(invoiced.map((f) => f.invoice_id)));

    // every fee announced once, in one advance_fees.created per envelope (envelope ids derived from the envelope's fees:
    // a second copy is dropped by the stream); a batch's events are published after it is acknowledged
    const subject = Subjects.invoicing.advanceFeesCreated;
    const messages = async () =>
      (await bus.jsm.streams.info(Streams.invoicing.name, { subjects_filter: subject })).state.subjects?.[subject] ?? 0;
    await waitFor(async () => (await messages()) >= ENVELOPES, { what: "fee events" });
    await new Promise((r) => setTimeout(r, 300));
    expect(await messages()).toBe(ENVELOPES);
    const { state } = await bus.jsm.streams.info(Streams.invoicing.name);
    const announced: string[] = [];
    for (let seq = state.first_seq; seq <= state.last_seq; seq++) {
      const m = await bus.jsm.streams.getMessage(Streams.invoicing.name, { seq }).catch(() => null);
      if (m?.subject === subject)
        announced.push(...m.json<{ data: { fees: Array<{ svc_id: string }> } }>().data.fees.map((f) => f.svc_id));
    }
    expect(announced).toHaveLength(events);
    expect(new Set(announced)).toEqual(new Set(all.map((f) => f._id)));
  }, 120_000);
});
