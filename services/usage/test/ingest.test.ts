import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@billing/testkit";
import { eventKey } from "../src/domain/usage-event";
import { IngestRefused, startUsageHarness, type EventIn, type UsageHarness } from "./usage-harness";

let h: UsageHarness;
const org = randomUUID();
const MAY = { from: "2026-05-01T00:00:00Z", to: "2026-06-01T00:00:00Z" };
const at = (iso: string) => Date.parse(iso);
const ev = (tx: string, fields: Partial<EventIn> = {}): EventIn => ({
  transaction_id: tx,
  external_subscription_id: "sub_1",
  code: "calls",
  timestamp_ms: at("2026-05-10T12:00:00Z"),
  ...fields,
});
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (err: unknown) => (err instanceof IngestRefused ? { status: err.status, details: err.details } : err),
  );
const count = async (sub = "sub_1", code = "calls") =>
  Number((await h.aggregate({ organization_id: org, external_subscription_id: sub, code, ...MAY })).events_count);
const storedKeys = async (keys: string[]) => (await h.collections.events.find({ _id: { $in: keys } }).toArray()).length;

beforeAll(async () => {
  h = await startUsageHarness("usage_ingest");
  h.copies.addMetric(org, { code: "calls" });
  h.copies.addMetric(org, { code: "gb", aggregation_type: "sum_agg", field_name: "a.b" });
  h.copies.addMetric(org, {
    code: "computed",
    aggregation_type: "sum_agg",
    field_name: "total",
    expression: "event.properties.a * 2",
  });
});

afterAll(async () => {
  await h?.close();
});

describe("IngestHttp", () => {
  const call = async (requests: Array<{ batch: boolean; body: string; org?: string }>) => {
    const reply = (await h.parts.handlers.IngestHttp(
      { requests: requests.map((r) => ({ organization_id: r.org ?? org, batch: r.batch, body: Buffer.from(r.body) })) },
      {} as never,
    )) as { answers: Array<{ status: number; body: Buffer }> };
    return reply.answers.map((a) => ({
      status: a.status,
      body: JSON.parse(a.body.toString()) as Record<string, unknown>,
    }));
  };
  const api = (tx: string, extra = "") =>
    `{"transaction_id":"${tx}","external_subscription_id":"sub_http","code":"calls","timestamp":1778414400${extra}}`;

  it("answers each request of a call on its own, in the API's terms", async () => {
    const answers = await call([
      { batch: false, body: `{"event":${api("h-1", ',"properties":{"a.b":1,"$c":"x"}')}}` },
      { batch: true, body: `{"events":[${api("h-2")},${api("h-3", ',"timestamp":"1778414400.5"')}]}` },
      { batch: false, body: `{"event":${api("h-1")}}` },
      { batch: true, body: "{not json" },
      { batch: true, body: `{"events":[${api("h-4")},${api("h-5", ',"timestamp":"soon"')}]}` },
      { batch: false, body: `{"nope":{}}` },
      { batch: true, body: `{"events":[${Array.from({ length: 101 }, (_, i) => api(`many-${i}`)).join(",")}]}` },
      { batch: false, body: `{"event":${api("nul", ',"properties":{"a":"\\u0000"}')}}` },
    ]);
    expect(answers[0]).toEqual({
      status: 200,
      body: {
        event: {
          svc_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          transaction_id: "h-1",
          svc_customer_id: null,
          code: "calls",
          timestamp: "2026-05-10T12:00:00.000Z",
          svc_subscription_id: null,
          external_subscription_id: "sub_http",
          precise_total_amount_cents: null,
          properties: { "a.b": 1, $c: "x" },
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        },
      },
    });
    expect(answers[1]!.status).toBe(200);
    expect(
      (answers[1]!.body.events as Array<{ transaction_id: string; timestamp: string }>).map((e) => [
        e.transaction_id,
        e.timestamp,
      ]),
    ).toEqual([
      ["h-2", "2026-05-10T12:00:00.000Z"],
      ["h-3", "2026-05-10T12:00:00.500Z"],
    ]);
    // the same transaction_id later in the same call: the first one holds it
    expect(answers[2]).toEqual({
      status: 422,
      body: {
        status: 422,
        error: "Unprocessable Entity",
        code: "validation_errors",
        error_details: { transaction_id: ["value_already_exist"] },
      },
    });
    expect(answers[3]).toEqual({ status: 400, body: { status: 400, error: "Bad Request" } });
    expect(answers[4]).toMatchObject({
      status: 422,
      body: { error_details: { "1": { timestamp: ["invalid_format"] } } },
    });
    expect(answers[5]).toEqual({
      status: 400,
      body: { status: 400, error: "BadRequest: param is missing or the value is empty: event" },
    });
    expect(answers[6]).toMatchObject({ status: 422, body: { error_details: { events: ["too_many_events"] } } });
    expect(answers[7]).toEqual({ status: 400, body: { status: 400, error: "Bad Request" } });
    // nothing of a refused request is stored
    await waitFor(async () => (await count("sub_http")) === 3, { timeoutMs: 10_000 });
    expect(await storedKeys(["h-4", "many-0"].map((tx) => eventKey(org, "sub_http", tx)))).toBe(0);
  });
});

// What the gateway's POST /events/batch reaches: the harness sends each request as one IngestHttp batch.
describe("ingestion", () => {
  it("answers once durable, with ids, ISO timestamps with milliseconds, and the properties", async () => {
    const reply = await h.ingest(org, [
      ev("t-1", { timestamp_ms: 1651240791123, properties_json: '{"x":1}', precise_total_amount_cents: "12.5" }),
    ]);
    expect(reply.events[0]).toMatchObject({
      transaction_id: "t-1",
      external_subscription_id: "sub_1",
      code: "calls",
      timestamp: "2022-04-29T13:59:51.123Z",
      precise_total_amount_cents: "12.5",
    });
    expect(reply.events[0]!.properties).toEqual({ x: 1 });
    expect(reply.events[0]!.svc_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(reply.events[0]!.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it("stamps events without a timestamp with the reception time", async () => {
    const before = Date.now();
    const reply = await h.ingest(org, [
      { transaction_id: "now-1", external_subscription_id: "sub_now", code: "calls" },
    ]);
    const t = Date.parse(String(reply.events[0]!.timestamp));
    expect(t).toBeGreaterThanOrEqual(before - 1);
    expect(t).toBeLessThanOrEqual(Date.now());
  });

  it("refuses the same transaction_id twice, before and after it is stored", async () => {
    await h.ingest(org, [ev("dup-1")]);
    const early = await refusal(h.ingest(org, [ev("dup-1")]));
    expect(early).toEqual({ status: 422, details: { "0": { transaction_id: ["value_already_exist"] } } });
    await waitFor(() => storedKeys([eventKey(org, "sub_1", "dup-1")]), { what: "dup-1 stored" });
    const late = await refusal(h.ingest(org, [ev("other"), ev("dup-1", { timestamp_ms: at("2026-05-11T00:00:00Z") })]));
    expect(late).toEqual({ status: 422, details: { "1": { transaction_id: ["value_already_exist"] } } });
    expect(await storedKeys([eventKey(org, "sub_1", "other")])).toBe(0);
  });

  it("refuses a whole batch with a repeated transaction_id and stores nothing of it", async () => {
    const refused = await refusal(h.ingest(org, [ev("b-1"), ev("b-2"), ev("b-1"), ev("b-3")]));
    expect(refused).toEqual({ status: 422, details: { "2": { transaction_id: ["value_already_exist"] } } });
    // the same events without the repeat are new: nothing of the refused batch was kept
    await h.ingest(org, [ev("b-1"), ev("b-2"), ev("b-3")]);
  });

  it("keys by organization and subscription: the same transaction_id elsewhere is another event", async () => {
    await h.ingest(org, [ev("shared", { external_subscription_id: "sub_a" })]);
    await h.ingest(org, [ev("shared", { external_subscription_id: "sub_b" })]);
    await h.ingest(randomUUID(), [ev("shared", { external_subscription_id: "sub_a" })]);
    await waitFor(async () => (await count("sub_a")) === 1 && (await count("sub_b")) === 1, { what: "both stored" });
  });

  it("lets exactly one of two concurrent requests with the same transaction_id through", async () => {
    const results = await Promise.all(
      [0, 1, 2, 3].map(() => refusal(h.ingest(org, [ev("race-1", { external_subscription_id: "sub_race" })]))),
    );
    expect(results.filter((r) => r === null)).toHaveLength(1);
    await waitFor(async () => (await count("sub_race")) === 1, { what: "race stored" });
  });

  it("reports every invalid event by index", async () => {
    const refused = await refusal(
      h.ingest(org, [ev("v-1"), { ...ev(""), timestamp_ms: Number.NaN }, ev("v-3", { properties_json: "[1]" })]),
    );
    expect(refused).toEqual({
      status: 422,
      details: {
        "1": { transaction_id: ["value_is_mandatory"], timestamp: ["invalid_format"] },
        "2": { properties: ["value_is_invalid"] },
      },
    });
  });

  it("keeps property keys with dots and dollars", async () => {
    await h.ingest(org, [ev("dot-1", { code: "gb", properties_json: '{"a.b":2.5,"$c":"x","d":{"e.f":1}}' })]);
    await h.ingest(org, [ev("dot-2", { code: "gb", properties_json: '{"a.b":"4"}' })]);
    await waitFor(async () => (await count("sub_1", "gb")) === 2, { what: "stored" });
    const stored = await h.parts.reader.events({
      organizationId: org,
      externalSubscriptionId: "sub_1",
      code: "gb",
      from: new Date(MAY.from),
      to: new Date(MAY.to),
    });
    expect(stored.map((e) => e.properties)).toEqual([{ "a.b": 2.5, $c: "x", d: { "e.f": 1 } }, { "a.b": "4" }]);
    expect(
      (await h.aggregate({ organization_id: org, external_subscription_id: "sub_1", code: "gb", ...MAY })).units,
    ).toBe("6.5");
  });

  it("writes a metric's expression into its field at ingestion", async () => {
    const reply = await h.ingest(org, [ev("expr-1", { code: "computed", properties_json: '{"a":"3"}' })]);
    expect(reply.events[0]!.properties).toEqual({ a: "3", total: "6.0" });
    const refused = await refusal(h.ingest(org, [ev("expr-2", { code: "computed", properties_json: '{"b":1}' })]));
    expect(refused).toEqual({ status: 422, details: { "0": { properties: ["Variable: a not found"] } } });
  });

  it("stores what it could not keep in memory by reading it back from the stream", async () => {
    const lean = await startUsageHarness("usage_lean", { STORE_LOCAL_EVENTS: "0" });
    try {
      lean.copies.addMetric(org, { code: "gb", aggregation_type: "sum_agg", field_name: "a.b" });
      await lean.ingest(org, [
        ev("l-1", { code: "gb", properties_json: '{"a.b":1.5}' }),
        ev("l-2", { code: "gb", properties_json: '{"a.b":"2"}' }),
      ]);
      const agg = () => lean.aggregate({ organization_id: org, external_subscription_id: "sub_1", code: "gb", ...MAY });
      await waitFor(async () => (await agg()).units === "3.5", { what: "stored through the stream" });
    } finally {
      await lean.close();
    }
  });

  it("answers 429 rather than queueing without bound", async () => {
    const small = await startUsageHarness("usage_cap", { INGEST_MAX_IN_FLIGHT_EVENTS: "100" });
    try {
      const big = Array.from({ length: 60 }, (_, i) => ev(`cap-${i}`));
      const results = await Promise.all([
        refusal(small.ingest(org, big)),
        refusal(
          small.ingest(
            org,
            big.map((e) => ({ ...e, transaction_id: `${e.transaction_id}b` })),
          ),
        ),
      ]);
      expect(results).toContainEqual({ status: 429, details: undefined });
      expect(results).toContain(null);
    } finally {
      await small.close();
    }
  });
});
