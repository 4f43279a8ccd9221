import type { Connection } from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectBus, ensureStream, publishFromOutbox, startOutboxRelay, Streams, type Bus, type Envelope } from "@billing/bus";
import { ManualClock } from "@billing/clock";
import { AppError } from "@billing/errors";
import { silentLogger } from "@billing/logger";
import { connectMongo, initModels } from "@billing/mongo";
import { infraUrls, uniqueName, waitFor } from "@billing/testkit";
import { CustomerRepository } from "../src/persistence/customer-repository";
import { registerModels, type Models } from "../src/persistence/models";
import { OrganizationRepository } from "../src/persistence/organization-repository";
import type { CustomerDeps } from "../src/use-cases/deps";
import { authenticateApiKey, createOrganization } from "../src/use-cases/organizations";
import { upsertCustomer } from "../src/use-cases/upsert-customer";

let connection: Connection;
let models: Models;
let bus: Bus;
let deps: CustomerDeps;
const clock = new ManualClock("2026-01-15T10:00:00Z");

beforeAll(async () => {
  connection = await connectMongo({ url: infraUrls().mongoUrl, dbName: uniqueName("customer_svc") });
  models = registerModels(connection);
  await initModels(connection);
  bus = await connectBus({ url: infraUrls().natsUrl, name: "customer-test" });
  await ensureStream(bus.jsm, Streams.customer);
  const customers = new CustomerRepository(models);
  deps = {
    customers,
    organizations: new OrganizationRepository(models),
    clock,
    publish: (id, event) => publishFromOutbox(bus, customers.outbox(), id, event, silentLogger),
  };
});

afterAll(async () => {
  await connection.dropDatabase();
  await connection.close();
  await bus.close();
});

const org = async (name = "Acme") => (await createOrganization(deps, { name })).organization.id;

describe("customer service against MongoDB and NATS", () => {
  it("authenticates only the organization's own key, stored hashed", async () => {
    const { organization, apiKey } = await createOrganization(deps, { name: "Keyed" });
    expect((await authenticateApiKey(deps, apiKey)).id).toBe(organization.id);
    await expect(authenticateApiKey(deps, `${apiKey}x`)).rejects.toMatchObject({ kind: "unauthenticated" });
    expect(await models.apiKeys.countDocuments({ key_hash: apiKey })).toBe(0);
  });

  it("creates, then updates the same customer by external_id", async () => {
    const orgId = await org();
    const first = await upsertCustomer(deps, { organizationId: orgId, externalId: "c1", patch: { name: "A", currency: "EUR" } });
    clock.advance(1000);
    const second = await upsertCustomer(deps, { organizationId: orgId, externalId: "c1", patch: { name: "B" } });
    expect(first.created).toBe(true);
    expect(second.created).toBe(false);
    expect(second.customer.id).toBe(first.customer.id);
    expect([second.customer.name, second.customer.currency]).toEqual(["B", "EUR"]);
    expect(await models.customers.countDocuments({ organization_id: orgId })).toBe(1);
  });

  it("keeps one customer per external_id and organization under concurrent upserts", async () => {
    const orgId = await org();
    const other = await org("Other");
    const results = await Promise.all([
      ...Array.from({ length: 10 }, (_, i) => upsertCustomer(deps, { organizationId: orgId, externalId: "same", patch: { name: `n${i}` } })),
      upsertCustomer(deps, { organizationId: other, externalId: "same", patch: {} }),
    ]);
    expect(new Set(results.slice(0, 10).map((r) => r.customer.id)).size).toBe(1);
    expect(results.slice(0, 10).filter((r) => r.created)).toHaveLength(1);
    expect(await models.customers.countDocuments({ organization_id: orgId })).toBe(1);
    expect(await models.customers.countDocuments({ organization_id: other })).toBe(1);
  });

  it("numbers customers sequentially per organization", async () => {
    const orgId = await org();
    const ids = [];
    for (const ext of ["a", "b", "c"]) ids.push((await upsertCustomer(deps, { organizationId: orgId, externalId: ext, patch: {} })).customer.sequential_id);
    expect(ids).toEqual([1, 2, 3]);
  });

  it("stores nothing when the result breaks an invariant", async () => {
    const orgId = await org();
    const err = await upsertCustomer(deps, { organizationId: orgId, externalId: "bad", patch: { country: "ZZ" } }).catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err.details).toEqual({ country: ["not_a_valid_country_code"] });
    expect(await models.customers.countDocuments({ organization_id: orgId })).toBe(0);
  });

  it("refuses an unknown billing entity", async () => {
    const orgId = await org();
    await expect(upsertCustomer(deps, { organizationId: orgId, externalId: "x", patch: { billing_entity_code: "nope" } }))
      .rejects.toMatchObject({ code: "billing_entity_not_found" });
  });

  it("publishes an event that could not be published at once, from the outbox", async () => {
    const orgId = await org();
    const received: Envelope[] = [];
    const sub = bus.nc.subscribe("billing.customer.customer.created");
    void (async () => {
      for await (const m of sub) {
        const e = m.json<Envelope>();
        if (e.organization_id === orgId) received.push(e);
      }
    })();
    // NATS "down" at the moment of the write: the event stays in the customer's document
    const { customer } = await upsertCustomer({ ...deps, publish: async () => undefined }, { organizationId: orgId, externalId: "late", patch: {} });
    const doc = await models.customers.findById(customer.id).lean<{ outbox: Envelope[] }>();
    expect(doc?.outbox).toHaveLength(1);

    const relay = startOutboxRelay(bus, [deps.customers.outbox()], silentLogger, 100);
    await waitFor(() => received.length === 1, { what: "relayed event" });
    relay.stop();
    sub.unsubscribe();
    expect(received[0]?.data).toMatchObject({ customer: { svc_id: customer.id, external_id: "late" } });
    expect((await models.customers.findById(customer.id).lean<{ outbox: Envelope[] }>())?.outbox).toEqual([]);
  });
});
