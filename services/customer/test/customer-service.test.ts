import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOutboxRelay, type Envelope } from "@billing/bus";
import { AppError } from "@billing/errors";
import { silentLogger } from "@billing/logger";
import { waitFor } from "@billing/testkit";
import { authenticateApiKey } from "../src/use-cases/organizations/authenticate-api-key";
import { createOrganization } from "../src/use-cases/organizations/create-organization";
import { upsertCustomer } from "../src/use-cases/customers/upsert-customer";
import { startCustomerHarness, type CustomerHarness } from "./harness";

let h: CustomerHarness;
beforeAll(async () => (h = await startCustomerHarness("customer_svc")));
afterAll(() => h.close());

const org = (name?: string) => h.org(name);

describe("customer service against MongoDB and NATS", () => {
  it("authenticates only the organization's own key, stored hashed", async () => {
    const { organization, apiKey } = await createOrganization(h.deps, { name: "Keyed" });
    expect((await authenticateApiKey(h.deps, apiKey)).id).toBe(organization.id);
    await expect(authenticateApiKey(h.deps, `${apiKey}x`)).rejects.toMatchObject({ kind: "unauthenticated" });
    expect(await h.models.apiKeys.countDocuments({ key_hash: apiKey })).toBe(0);
  });

  it("creates, then updates the same customer by external_id", async () => {
    const orgId = await org();
    const first = await upsertCustomer(h.deps, {
      organizationId: orgId,
      externalId: "c1",
      patch: { name: "A", currency: "EUR" },
    });
    h.clock.advance(1000);
    const second = await upsertCustomer(h.deps, { organizationId: orgId, externalId: "c1", patch: { name: "B" } });
    expect(first.created).toBe(true);
    expect(second.created).toBe(false);
    expect(second.customer.id).toBe(first.customer.id);
    expect([second.customer.name, second.customer.currency]).toEqual(["B", "EUR"]);
    expect(await h.models.customers.countDocuments({ organization_id: orgId })).toBe(1);
  });

  it("keeps one customer per external_id and organization under concurrent upserts", async () => {
    const orgId = await org();
    const other = await org("Other");
    const results = await Promise.all([
      ...Array.from({ length: 10 }, (_, i) =>
        upsertCustomer(h.deps, { organizationId: orgId, externalId: "same", patch: { name: `n${i}` } }),
      ),
      upsertCustomer(h.deps, { organizationId: other, externalId: "same", patch: {} }),
    ]);
    expect(new Set(results.slice(0, 10).map((r) => r.customer.id)).size).toBe(1);
    expect(results.slice(0, 10).filter((r) => r.created)).toHaveLength(1);
    expect(await h.models.customers.countDocuments({ organization_id: orgId })).toBe(1);
    expect(await h.models.customers.countDocuments({ organization_id: other })).toBe(1);
  });

  it("numbers customers sequentially per organization", async () => {
    const orgId = await org();
    const ids = [];
    for (const ext of ["a", "b", "c"])
      ids.push(
        (await upsertCustomer(h.deps, { organizationId: orgId, externalId: ext, patch: {} })).customer.sequential_id,
      );
    expect(ids).toEqual([1, 2, 3]);
  });

  it("stores nothing when the result breaks an invariant", async () => {
    const orgId = await org();
    const err = await upsertCustomer(h.deps, {
      organizationId: orgId,
      externalId: "bad",
      patch: { country: "ZZ" },
    }).catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err.details).toEqual({ country: ["not_a_valid_country_code"] });
    expect(await h.models.customers.countDocuments({ organization_id: orgId })).toBe(0);
  });

  it("refuses an unknown billing entity", async () => {
    const orgId = await org();
    await expect(
      upsertCustomer(h.deps, { organizationId: orgId, externalId: "x", patch: { billing_entity_code: "nope" } }),
    ).rejects.toMatchObject({ code: "billing_entity_not_found" });
  });

  it("publishes an event that could not be published at once, from the outbox", async () => {
    const orgId = await org();
    const received: Envelope[] = [];
    const sub = h.bus.nc.subscribe("billing.customer.customer.created");
    void (async () => {
      for await (const m of sub) {
        const e = m.json<Envelope>();
        if (e.organization_id === orgId) received.push(e);
      }
    })();
    // NATS "down" at the moment of the write: the event stays in the customer's document
    const { customer } = await upsertCustomer(
      { ...h.deps, publish: async () => undefined },
      { organizationId: orgId, externalId: "late", patch: {} },
    );
    const doc = await h.models.customers.findById(customer.id).lean<{ outbox: Envelope[] }>();
    expect(doc?.outbox).toHaveLength(1);

    const relay = startOutboxRelay(h.bus, [h.deps.customers.outbox()], silentLogger, 100);
    await waitFor(() => received.length === 1, { what: "relayed event" });
    relay.stop();
    sub.unsubscribe();
    expect(received[0]?.data).toMatchObject({ customer: { svc_id: customer.id, external_id: "late" } });
    expect((await h.models.customers.findById(customer.id).lean<{ outbox: Envelope[] }>())?.outbox).toEqual([]);
  });
});
