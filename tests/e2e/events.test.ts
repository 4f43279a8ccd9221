import { Client } from "lago-javascript-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Rpc, type UsageRpc } from "@billing/contracts";
import { RpcClient } from "@billing/grpc";
import { waitFor } from "@billing/testkit";
import { api } from "../support/api";
import { openapiCheckedFetch } from "../support/openapi-checked-fetch";
import { startE2E, type E2E } from "../support/platform";

/** POST /events and /events/batch through the whole platform; aggregates asked of the usage service over gRPC. */
let e2e: E2E;
let usage: RpcClient<UsageRpc>;
const orgs: Record<"a" | "b", { organization_id: string; api_key: string; call: ReturnType<typeof api> }> = {} as never;
const MAY = { from: "2026-05-01T00:00:00Z", to: "2026-06-01T00:00:00Z" };
const may = (day: number) => String(Date.parse(`2026-05-${String(day).padStart(2, "0")}T12:00:00Z`) / 1000);

const aggregate = (org: "a" | "b", code: string, sub = "sub_1", extra: Record<string, unknown> = {}) =>
  usage.call("Aggregate", {
    organization_id: orgs[org].organization_id,
    external_subscription_id: sub,
    code,
    ...MAY,
    ...extra,
  });

beforeAll(async () => {
  e2e = await startE2E("events");
  for (const [key, name] of [
    ["a", "Acme"],
    ["b", "Globex"],
  ] as const) {
    const org = await e2e.organization(name);
    orgs[key] = { ...org, call: api(e2e.platform.baseUrl, org.api_key) };
    for (const metric of [
      { name: "Calls", code: "calls", aggregation_type: "count_agg" },
      { name: "Storage", code: "storage", aggregation_type: "sum_agg", field_name: "gb" },
    ]) {
      expect((await orgs[key].call("POST", "/billable_metrics", { billable_metric: metric })).status).toBe(200);
    }
  }
  usage = new RpcClient(Rpc.usage, `127.0.0.1:${e2e.platform.env.usage.GRPC_PORT}`);
  // the usage service knows a metric once the catalog's event reached its read copy
  await waitFor(() => aggregate("b", "storage").then(() => true), {
    what: "the usage service's copy of the metrics",
    timeoutMs: 20_000,
  });
});

afterAll(async () => {
  usage?.close();
  await e2e?.stop();
});

describe("POST /events", () => {
  it("answers the official Lago client with the event, as Lago's OpenAPI document describes", async () => {
    const checked = openapiCheckedFetch();
    const lago = Client(orgs.a.api_key, {
      baseUrl: `${e2e.platform.baseUrl}/api/v1`,
      customFetch: checked.fetch as typeof fetch,
    });
    const { data } = await lago.events.createEvent({
      // string values: tests/support's checker reads Lago's `oneOf [string, integer, number]` strictly (an integer matches two)
      event: {
        transaction_id: "tx-1",
        external_subscription_id: "sub_1",
        code: "storage",
        timestamp: "1651240791.123",
        properties: { gb: "10", "a.b": "x", $c: "1" },
      },
    });
    expect(data.event).toMatchObject({
      transaction_id: "tx-1",
      external_subscription_id: "sub_1",
      code: "storage",
      svc_customer_id: null,
      svc_subscription_id: null,
      timestamp: "2022-04-29T13:59:51.123Z",
      properties: { gb: "10", "a.b": "x", $c: "1" },
      precise_total_amount_cents: null,
    });
    const batch = await lago.events.createBatchEvents({
      events: [{ transaction_id: "tx-2", external_subscription_id: "sub_1", code: "calls", timestamp: 1651240791 }],
    });
    expect(batch.data.events[0]).toMatchObject({ transaction_id: "tx-2", timestamp: "2022-04-29T13:59:51.000Z" });
    expect(checked.exchanges.map((e) => `${e.operationId} ${e.status}`)).toEqual([
      "createEvent 200",
      "createBatchEvents 200",
    ]);
  });

  it("keeps properties as sent (numbers, keys with dots and dollars) and precise_total_amount_cents", async () => {
    const event = {
      transaction_id: "tx-3",
      external_subscription_id: "sub_1",
      code: "storage",
      properties: { gb: 2.5, "x.y": 1, $z: { n: 1 } },
      precise_total_amount_cents: "12.34",
    };
    const res = await orgs.a.call("POST", "/events", { event });
    expect(res.status).toBe(200);
    expect(res.body.event).toMatchObject({ properties: event.properties, precise_total_amount_cents: "12.34" });
    expect(Math.abs(Date.parse(res.body.event.timestamp) - Date.now())).toBeLessThan(60_000);
  });

  it("refuses a transaction_id already acknowledged, in Lago's words", async () => {
    const event = { transaction_id: "dup-1", external_subscription_id: "sub_1", code: "calls", timestamp: may(2) };
    expect((await orgs.a.call("POST", "/events", { event })).status).toBe(200);
    const again = await orgs.a.call("POST", "/events", { event });
    expect(again).toEqual({
      status: 422,
      body: {
        status: 422,
        error: "Unprocessable Entity",
        code: "validation_errors",
        error_details: { transaction_id: ["value_already_exist"] },
      },
    });
  });

  it("validates: missing wrapper 400, bad timestamp 422 invalid_format, missing fields value_is_mandatory", async () => {
    expect((await orgs.a.call("POST", "/events", { nope: {} })).status).toBe(400);
    const bad = await orgs.a.call("POST", "/events", {
      event: { transaction_id: "t", external_subscription_id: "sub_1", code: "calls", timestamp: "yesterday" },
    });
    expect([bad.status, bad.body.error_details]).toEqual([422, { timestamp: ["invalid_format"] }]);
    const missing = await orgs.a.call("POST", "/events", { event: { code: "calls" } });
    expect(missing.body.error_details).toEqual({
      transaction_id: ["value_is_mandatory"],
      external_subscription_id: ["value_is_mandatory"],
    });
  });

  it("takes concurrent single events, each answered on its own (one stored per transaction_id)", async () => {
    const send = (i: number) =>
      orgs.a.call("POST", "/events", {
        event: {
          transaction_id: `c-${i % 40}`,
          external_subscription_id: "sub_conc",
          code: "calls",
          timestamp: may(3),
        },
      });
    const statuses = (await Promise.all(Array.from({ length: 60 }, (_, i) => send(i)))).map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(40);
    expect(statuses.filter((s) => s === 422)).toHaveLength(20);
    await waitFor(async () => (await aggregate("a", "calls", "sub_conc")).events_count === 40, { what: "40 stored" });
  });
});

describe("POST /events/batch", () => {
  const batch = (prefix: string, n: number, sub = "sub_batch") =>
    Array.from({ length: n }, (_, i) => ({
      transaction_id: `${prefix}-${i}`,
      external_subscription_id: sub,
      code: "storage",
      timestamp: may(5 + (i % 20)),
      properties: { gb: i, tier: i % 2 ? "pro" : "base" },
    }));

  it("stores 100 events, answered in order, and aggregates them", async () => {
    const res = await orgs.a.call("POST", "/events/batch", { events: batch("b", 100) });
    expect(res.status).toBe(200);
    expect(res.body.events.map((e: { transaction_id: string }) => e.transaction_id)).toEqual(
      batch("b", 100).map((e) => e.transaction_id),
    );
    await waitFor(async () => (await aggregate("a", "storage", "sub_batch")).events_count === 100, {
      what: "100 stored",
    });
    const grouped = await aggregate("a", "storage", "sub_batch", { grouped_by: ["tier"] });
    expect(grouped.units).toBe("4950");
    expect(grouped.groups.map((g) => [g.grouped_by, g.units])).toEqual([
      [{ tier: "base" }, "2450"],
      [{ tier: "pro" }, "2500"],
    ]);
  });

  it("refuses more than 100 events, and a batch with one known or repeated transaction_id, storing nothing of it", async () => {
    const tooMany = await orgs.a.call("POST", "/events/batch", { events: batch("x", 101) });
    expect([tooMany.status, tooMany.body.error_details]).toEqual([422, { events: ["too_many_events"] }]);
    const known = await orgs.a.call("POST", "/events/batch", { events: [...batch("n", 3), batch("b", 1)[0]] });
    expect([known.status, known.body.error_details]).toEqual([
      422,
      { "3": { transaction_id: ["value_already_exist"] } },
    ]);
    const repeated = await orgs.a.call("POST", "/events/batch", { events: [...batch("n", 3), batch("n", 1)[0]] });
    expect([repeated.status, repeated.body.error_details]).toEqual([
      422,
      { "3": { transaction_id: ["value_already_exist"] } },
    ]);
    const invalid = await orgs.a.call("POST", "/events/batch", {
      events: [batch("n", 1)[0], { ...batch("n", 2)[1], timestamp: "x" }],
    });
    expect([invalid.status, invalid.body.error_details]).toEqual([422, { "1": { timestamp: ["invalid_format"] } }]);
    // the refused events were not stored: they are accepted now
    expect((await orgs.a.call("POST", "/events/batch", { events: batch("n", 3) })).status).toBe(200);
    await waitFor(async () => (await aggregate("a", "storage", "sub_batch")).events_count === 103, {
      what: "103 stored",
    });
  });
});

describe("organizations", () => {
  it("cannot ingest into or aggregate another organization's subscription", async () => {
    const events = (prefix: string) =>
      Array.from({ length: 10 }, (_, i) => ({
        transaction_id: `${prefix}-${i}`,
        external_subscription_id: "sub_iso",
        code: "storage",
        timestamp: may(9),
        properties: { gb: 1 },
      }));
    expect((await orgs.a.call("POST", "/events/batch", { events: events("iso") })).status).toBe(200);
    // the same transaction ids and subscription from another organization are that organization's own events
    expect(
      (await orgs.b.call("POST", "/events/batch", { events: [...events("iso"), ...events("iso-b")] })).status,
    ).toBe(200);
    await waitFor(async () => (await aggregate("b", "storage", "sub_iso")).events_count === 20, { what: "b stored" });
    expect(await aggregate("a", "storage", "sub_iso")).toMatchObject({ units: "10", events_count: 10 });
    expect(await aggregate("b", "storage", "sub_iso")).toMatchObject({ units: "20", events_count: 20 });
  });
});
