import { createHmac, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import jwt from "jsonwebtoken";
import type { Connection } from "mongoose";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  connectBus,
  derivedUuid,
  publishEnvelope,
  Subjects,
  type Bus,
  type ConsumerHandle,
  type Envelope,
} from "@billing/bus";
import { ManualClock } from "@billing/clock";
import { domainEvent } from "@billing/contracts";
import { AppError } from "@billing/errors";
import { silentLogger } from "@billing/logger";
import { connectMongo, initModels } from "@billing/mongo";
import { infraUrls, uniqueName, waitFor, dropTestDatabase } from "@billing/testkit";
import type { ObjectRef } from "../src/domain/webhook-events";
import type { WebhookObjects } from "../src/peers/webhook-objects";
import type { WebhookDispatcher } from "../src/schedule/webhook-dispatcher";
import { startWebhookSweeper } from "../src/schedule/webhook-sweeper";
import { createWebhookEndpoint } from "../src/use-cases/webhooks/create-webhook-endpoint";
import { deleteWebhookEndpoint } from "../src/use-cases/webhooks/delete-webhook-endpoint";
import { fanOutEvent } from "../src/use-cases/webhooks/fan-out-event";
import { getWebhookEndpoint } from "../src/use-cases/webhooks/get-webhook-endpoint";
import { getWebhookPublicKey } from "../src/use-cases/webhooks/get-webhook-keys";
import { listWebhooks } from "../src/use-cases/webhooks/list-webhooks";
import { retryWebhook } from "../src/use-cases/webhooks/retry-webhook";
import { webhookEventsOf } from "../src/domain/webhook-events";
import { startWebhookConsumers, wireWebhooks, type WebhookWiring } from "../src/wiring";

/**
 * Webhooks on the real MongoDB and NATS servers, to a real HTTP receiver that verifies every
 * signature with public tools (Node's crypto for hmac, jsonwebtoken for jwt, the Standard
 * Webhooks library for standard), counts deliveries by their unique key, and fails the first
 * attempts it is told to. The objects' owners are stand-ins (the e2e suite has the real ones).
 */
const dbName = uniqueName("webhooks");
const clock = new ManualClock(new Date("2024-02-01T00:00:00Z"));
const ISSUER = "http://127.0.0.1:3000";
const orgA = randomUUID();
const orgB = randomUUID();

interface Received {
  key: string;
  body: string;
  headers: http.IncomingHttpHeaders;
  path: string;
}
const received: Received[] = [];
/** path → how many more attempts to refuse (503) */
const failFirst = new Map<string, number>();
/** path → ms to wait before answering */
const slow = new Map<string, number>();
let receiver: http.Server;
let base: string;

const objects: WebhookObjects = {
  render: async (org: string, ref: ObjectRef) =>
    ref.kind === "customer"
      ? { svc_id: `svc-${ref.externalId}`, external_id: ref.externalId, organization: org, rendered: true }
      : null,
  close: () => undefined,
};

const connections: Connection[] = [];
let replicas: WebhookWiring[];
let bus: Bus;
const settings = (owner: string) => ({
  owner,
  leaseMs: 400,
  endpointConcurrency: 4,
  maxInFlight: 64,
  maxQueuedPerEndpoint: 1000,
  retryScale: 0.002,
});

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = req.url ?? "/";
      const left = failFirst.get(path) ?? 0;
      if (left > 0) {
        failFirst.set(path, left - 1);
        res.writeHead(503).end("not now");
        return;
      }
      received.push({
        key: String(req.headers["x-lago-unique-key"]),
        body: Buffer.concat(chunks).toString("utf8"),
        headers: req.headers,
        path,
      });
      setTimeout(() => res.writeHead(200).end("ok"), slow.get(path) ?? 0);
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  for (let i = 0; i < 2; i++) connections.push(await connectMongo({ url: infraUrls().mongoUrl, dbName }));
  replicas = connections.map((c, i) =>
    wireWebhooks(c, {
      clock,
      objects,
      logger: silentLogger,
      issuer: ISSUER,
      allowPrivate: true,
      timeoutMs: 2000,
      settings: settings(`replica-${i}`),
    }),
  );
  await initModels(connections[0]!);
  bus = await connectBus({ url: infraUrls().natsUrl, name: "webhooks-test" });
});

afterAll(async () => {
  await Promise.all(replicas.map((r) => r.dispatcher.stop()));
  replicas.forEach((r) => r.poster.close());
  await bus?.nc.close();
  await dropTestDatabase(connections[0]);
  await Promise.all(connections.map((c) => c.close()));
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
});

const customerEvent = (
  org: string,
  externalId: string,
  type: typeof Subjects.customer.customerCreated | typeof Subjects.customer.customerUpdated = Subjects.customer
    .customerUpdated,
) =>
  domainEvent(type, {
    organizationId: org,
    occurredAt: clock.now(),
    data: {
      customer: {
        svc_id: `svc-${externalId}`,
        external_id: externalId,
        sequential_id: 1,
        created_at: clock.now().toISOString(),
        updated_at: clock.now().toISOString(),
      },
    },
  });
let seq = 0;
const fanOut = (w: WebhookWiring, envelope: Envelope) =>
  fanOutEvent(w.deps, {
    organizationId: envelope.organization_id,
    eventId: envelope.id,
    event: webhookEventsOf(envelope.type, envelope.data)[0]!,
    seq: ++seq,
  });
const receivedAt = (path: string) => received.filter((r) => r.path === path);

describe("webhook endpoints", () => {
  it("refuses what may not receive webhooks and keeps each organization's endpoints its own", async () => {
    const strict = { ...replicas[0]!.deps, allowPrivate: false };
    const refused = async (url: string) =>
      createWebhookEndpoint(strict, orgA, { webhook_url: url, event_types: null }).then(
        () => null,
        (e: AppError) => e.details,
      );
    for (const url of [
      "ftp://example.com/hook",
      "not a url",
      "http://127.0.0.1:9/x",
      "http://localhost/x",
      "http://10.1.2.3/x",
      "http://169.254.169.254/latest",
      "http://[::1]/x",
      "http://user:pw@example.com/",
    ]) {
      expect(await refused(url), url).toBeTruthy();
    }
    await expect(
      createWebhookEndpoint(replicas[0]!.deps, orgA, { webhook_url: `${base}/x`, event_types: ["no.such_type"] }),
    ).rejects.toMatchObject({ details: { event_types: ["value_is_invalid"] } });
    const endpoint = await createWebhookEndpoint(replicas[0]!.deps, orgA, {
      webhook_url: `${base}/iso`,
      event_types: null,
    });
    await expect(
      createWebhookEndpoint(replicas[0]!.deps, orgA, { webhook_url: `${base}/iso`, event_types: null }),
    ).rejects.toMatchObject({ details: { webhook_url: ["value_already_exist"] } });
    await expect(getWebhookEndpoint(replicas[0]!.deps, orgB, endpoint.id)).rejects.toMatchObject({
      kind: "not_found",
      code: "webhook_endpoint_not_found",
    });
    await expect(deleteWebhookEndpoint(replicas[0]!.deps, orgB, endpoint.id)).rejects.toMatchObject({
      kind: "not_found",
    });
    // org B's events never reach org A's endpoint
    await fanOut(replicas[0]!, customerEvent(orgB, "b-only"));
    expect((await listWebhooks(replicas[0]!.deps, orgA, {}, { page: 1, perPage: 100 })).total).toBe(0);
    await deleteWebhookEndpoint(replicas[0]!.deps, orgA, endpoint.id);
  });
});

describe("deliveries", () => {
  it("signs each algorithm so that public tools verify it, with the payload Lago sends", async () => {
    const deps = replicas[0]!.deps;
    const hmacEndpoint = await createWebhookEndpoint(deps, orgA, {
      webhook_url: `${base}/hmac`,
      signature_algo: "hmac",
      event_types: ["customer.created"],
    });
    const jwtEndpoint = await createWebhookEndpoint(deps, orgA, {
      webhook_url: `${base}/jwt`,
      signature_algo: "jwt",
      event_types: null,
    });
    const standardEndpoint = await createWebhookEndpoint(deps, orgA, {
      webhook_url: `${base}/standard`,
      signature_algo: "standard",
      event_types: ["*"],
    });
    const event = customerEvent(orgA, "acme", Subjects.customer.customerCreated);
    await fanOut(replicas[0]!, event);
    await waitFor(
      () => receivedAt("/hmac").length === 1 && receivedAt("/jwt").length === 1 && receivedAt("/standard").length === 1,
      { what: "three deliveries" },
    );

    const payload = {
      webhook_type: "customer.created",
      object_type: "customer",
      organization_id: orgA,
      customer: { svc_id: "svc-acme", external_id: "acme", organization: orgA, rendered: true },
    };
    const [h] = receivedAt("/hmac");
    expect(JSON.parse(h!.body)).toEqual(payload);
    const hmacKey = await deps.keys.hmacKey(orgA);
    expect(h!.headers["x-lago-signature-algorithm"]).toBe("hmac");
    expect(h!.headers["x-lago-signature"]).toBe(createHmac("sha256", hmacKey).update(h!.body).digest("base64"));

    const [j] = receivedAt("/jwt");
    const publicPem = Buffer.from(await getWebhookPublicKey(deps, orgA), "base64").toString("utf8");
    const claims = jwt.verify(String(j!.headers["x-lago-signature"]), publicPem, {
      algorithms: ["RS256"],
      issuer: ISSUER,
    }) as { data: string };
    expect(claims.data).toBe(j!.body);
    expect(j!.headers["x-lago-signature-algorithm"]).toBe("jwt");

    const [s] = receivedAt("/standard");
    const verified = new StandardWebhook(standardEndpoint.signing_secret!).verify(
      s!.body,
      s!.headers as Record<string, string>,
    );
    expect(verified).toEqual(payload);
    expect(s!.headers["webhook-id"]).toBe(s!.key);
    expect(() =>
      new StandardWebhook(standardEndpoint.signing_secret!).verify(
        s!.body.replace("acme", "acne"),
        s!.headers as Record<string, string>,
      ),
    ).toThrow();

    // one unique key per delivery, distinct per endpoint; a redelivered event stores and sends nothing more
    expect(new Set([h!.key, j!.key, s!.key]).size).toBe(3);
    await fanOut(replicas[1]!, event);
    await new Promise((r) => setTimeout(r, 300));
    expect(receivedAt("/hmac").length + receivedAt("/jwt").length + receivedAt("/standard").length).toBe(3);
    // the hmac endpoint takes customer.created only
    await fanOut(replicas[0]!, customerEvent(orgA, "acme"));
    await waitFor(() => receivedAt("/jwt").length === 2 && receivedAt("/standard").length === 2, {
      what: "the update",
    });
    expect(receivedAt("/hmac").length).toBe(1);
    for (const e of [hmacEndpoint, jwtEndpoint, standardEndpoint]) await deleteWebhookEndpoint(deps, orgA, e.id);
  });

  it("retries refused attempts with the same key and payload, keeps each object's order, and logs the attempts", async () => {
    const deps = replicas[0]!.deps;
    const endpoint = await createWebhookEndpoint(deps, orgA, { webhook_url: `${base}/flaky`, event_types: null });
    failFirst.set("/flaky", 5);
    const events = Array.from({ length: 12 }, (_, i) => customerEvent(orgA, i % 2 === 0 ? "even" : "odd"));
    for (const e of events) await fanOut(replicas[0]!, e);
    await waitFor(() => receivedAt("/flaky").length === 12, { what: "12 deliveries", timeoutMs: 20_000 });
    const got = receivedAt("/flaky");
    expect(new Set(got.map((g) => g.key)).size).toBe(12);
    // per object, in the order of its events
    const { items } = await listWebhooks(deps, orgA, { endpointId: endpoint.id }, { page: 1, perPage: 100 });
    const seqOf = new Map(items.map((d) => [d.id, d]));
    for (const object of ["svc-even", "svc-odd"]) {
      const order = got.filter((g) => JSON.parse(g.body).customer.svc_id === object).map((g) => seqOf.get(g.key)!.seq);
      expect(order).toHaveLength(6);
      expect(order).toEqual([...order].sort((a, b) => a - b));
    }
    await waitFor(
      async () =>
        (await listWebhooks(deps, orgA, { endpointId: endpoint.id, status: "succeeded" }, { page: 1, perPage: 100 }))
          .total === 12,
      { what: "outcomes written" },
    );
    const retried = (
      await listWebhooks(deps, orgA, { endpointId: endpoint.id }, { page: 1, perPage: 100 })
    ).items.filter((d) => d.retries > 1);
    expect(retried.length).toBeGreaterThan(0);
    expect(retried.every((d) => d.http_status === 200 && d.status === "succeeded")).toBe(true);

    // a replay: the same key and body again
    const one = items[0]!;
    await retryWebhook(deps, orgA, one.id);
    await waitFor(() => receivedAt("/flaky").length === 13, { what: "the replay" });
    const replay = receivedAt("/flaky").at(-1)!;
    expect(replay.key).toBe(one.id);
    expect(replay.body).toBe(one.payload);
    await expect(retryWebhook(deps, orgB, one.id)).rejects.toMatchObject({ kind: "not_found" });
    await deleteWebhookEndpoint(deps, orgA, endpoint.id);
  });

  it("sends what a dead replica held once its lease has passed, from another replica, once", async () => {
    const endpoint = await createWebhookEndpoint(replicas[0]!.deps, orgA, {
      webhook_url: `${base}/orphans`,
      event_types: null,
    });
    // replica 0 stores 30 deliveries leased to itself, then "dies" before sending any
    const dead = replicas[0]!.dispatcher as WebhookDispatcher & { enqueue: (d: unknown) => void };
    const original = dead.enqueue.bind(dead);
    dead.enqueue = () => undefined;
    for (let i = 0; i < 30; i++) await fanOut(replicas[0]!, customerEvent(orgA, `orphan-${i}`));
    dead.enqueue = original;
    expect(receivedAt("/orphans").length).toBe(0);
    const sweeper = startWebhookSweeper(replicas[1]!.deps.webhooks, replicas[1]!.dispatcher, {
      intervalMs: 50,
      logger: silentLogger,
    });
    try {
      await waitFor(() => receivedAt("/orphans").length === 30, { what: "orphans delivered", timeoutMs: 10_000 });
      await new Promise((r) => setTimeout(r, 500));
      expect(new Set(receivedAt("/orphans").map((r) => r.key)).size).toBe(30);
      expect(receivedAt("/orphans").length).toBe(30);
    } finally {
      await sweeper.stop();
      await deleteWebhookEndpoint(replicas[0]!.deps, orgA, endpoint.id);
    }
  });

  it("keeps what it holds for a slow endpoint longer than a lease: renewed, so no other replica sends it too", async () => {
    const endpoint = await createWebhookEndpoint(replicas[0]!.deps, orgA, {
      webhook_url: `${base}/slow`,
      event_types: null,
    });
    slow.set("/slow", 250);
    const sweepers = replicas.map((r) =>
      startWebhookSweeper(r.deps.webhooks, r.dispatcher, { intervalMs: 50, logger: silentLogger }),
    );
    try {
      // 16 deliveries, 4 at a time, 250 ms each: the last wait about 1 s, more than twice the 400 ms lease
      for (let i = 0; i < 16; i++) await fanOut(replicas[0]!, customerEvent(orgA, `slow-${i}`));
      await waitFor(() => receivedAt("/slow").length >= 16, { what: "slow deliveries", timeoutMs: 10_000 });
      await new Promise((r) => setTimeout(r, 800));
      expect(receivedAt("/slow")).toHaveLength(16);
    } finally {
      await Promise.all(sweepers.map((s) => s.stop()));
      await deleteWebhookEndpoint(replicas[0]!.deps, orgA, endpoint.id);
    }
  });

  it("turns events on the bus into deliveries through the durable consumers", async () => {
    const deps = replicas[1]!.deps;
    const org = randomUUID();
    await createWebhookEndpoint(deps, org, { webhook_url: `${base}/bus`, event_types: null });
    const consumers: ConsumerHandle[] = await startWebhookConsumers(bus, deps, {
      durablePrefix: uniqueName("wh"),
      replicas: 1,
      logger: silentLogger,
    });
    try {
      for (let i = 0; i < 5; i++) await publishEnvelope(bus.js, customerEvent(org, `bus-${i}`));
      await waitFor(() => receivedAt("/bus").length === 5, { what: "bus deliveries", timeoutMs: 20_000 });
      expect(receivedAt("/bus").map((r) => JSON.parse(r.body).organization_id)).toEqual(Array(5).fill(org));
    } finally {
      await Promise.all(consumers.map((c) => c.stop()));
    }
  });

  it("sends one fee.created per fee of a message of many pay-in-advance fees, and a fee announced again alone is not sent twice", async () => {
    const deps = replicas[1]!.deps;
    const org = randomUUID();
    await createWebhookEndpoint(deps, org, { webhook_url: `${base}/fees`, event_types: ["fee.created"] });
    const consumers: ConsumerHandle[] = await startWebhookConsumers(bus, deps, {
      durablePrefix: uniqueName("whf"),
      replicas: 1,
      logger: silentLogger,
    });
    const at = clock.now().toISOString();
    const fee = (n: number) => ({
      svc_id: randomUUID(),
      svc_invoice_id: null,
      fee_type: "charge",
      item_code: "tokens",
      item_name: "Tokens",
      svc_subscription_id: "s1",
      external_subscription_id: "sub",
      svc_customer_id: "c1",
      external_customer_id: "cus",
      svc_charge_id: "ch1",
      svc_fixed_charge_id: null,
      billable_metric_code: "tokens",
      amount_cents: n,
      amount_currency: "EUR",
      precise_amount_cents: `${n}.0`,
      precise_coupons_amount_cents: "0.0",
      taxes_amount_cents: 0,
      total_amount_cents: n,
      units: "1.0",
      events_count: 1,
      pay_in_advance: true,
      invoiceable: false,
      from_date: at,
      to_date: at,
      created_at: at,
      event_transaction_id: `tx_${n}`,
      payment_status: "pending" as const,
    });
    const fees = [fee(1), fee(2), fee(3)];
    try {
      await publishEnvelope(
        bus.js,
        domainEvent(Subjects.invoicing.advanceFeesCreated, {
          organizationId: org,
          occurredAt: clock.now(),
          data: { fees },
        }),
      );
      await waitFor(() => receivedAt("/fees").length === 3, { what: "three fee deliveries", timeoutMs: 20_000 });
      const bodies = receivedAt("/fees").map((r) => JSON.parse(r.body));
      expect(bodies.map((b) => b.webhook_type)).toEqual(["fee.created", "fee.created", "fee.created"]);
      expect(new Set(bodies.map((b) => b.fee.svc_id))).toEqual(new Set(fees.map((f) => f.svc_id)));
      expect(bodies.find((b) => b.fee.svc_id === fees[1]!.svc_id)!.fee).toEqual(fees[1]); // the fee as the message showed it (no owner stand-in)

      // the same fee in the one-fee message of before: its delivery's id derives from the fee either way
      await publishEnvelope(
        bus.js,
        domainEvent(Subjects.invoicing.advanceFeeCreated, {
          organizationId: org,
          occurredAt: clock.now(),
          id: derivedUuid(`advance_fee.created|${fees[0]!.svc_id}`),
          data: { fee: fees[0]! },
        }),
      );
      await publishEnvelope(bus.js, customerEvent(org, "after-fees", Subjects.customer.customerCreated)); // not subscribed: a marker the consumer passed
      await new Promise((r) => setTimeout(r, 1_000));
      expect(receivedAt("/fees")).toHaveLength(3);
      expect((await listWebhooks(deps, org, {}, { page: 1, perPage: 100 })).total).toBe(3);
    } finally {
      await Promise.all(consumers.map((c) => c.stop()));
    }
  });
});
