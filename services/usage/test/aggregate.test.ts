import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aggregate, bucketEventsByFilter, groupEvents, type BillableMetric, type UsageEvent } from "@billing/pricing";
import { filterValuesToProto, groupedByToProto, type CommonMessages } from "@billing/contracts";
import { waitFor } from "@billing/testkit";
import { startUsageHarness, type EventIn, type UsageHarness } from "./usage-harness";

let h: UsageHarness;
const org = randomUUID();
const start = Date.parse("2026-05-01T00:00:00Z");
const HOUR = 3_600_000;
const metrics: Array<Partial<BillableMetric> & { code: string }> = [
  { code: "count", aggregation_type: "count_agg" },
  { code: "sum", aggregation_type: "sum_agg", field_name: "v" },
  {
    code: "sum_rounded",
    aggregation_type: "sum_agg",
    field_name: "v",
    rounding_function: "ceil",
    rounding_precision: 1,
  },
  { code: "max", aggregation_type: "max_agg", field_name: "v" },
  { code: "latest", aggregation_type: "latest_agg", field_name: "v" },
  { code: "unique", aggregation_type: "unique_count_agg", field_name: "user" },
  { code: "weighted", aggregation_type: "weighted_sum_agg", field_name: "v", weighted_interval: "seconds" },
];
const VALUES = [1, 2.5, "3", "0.1", "0.2", -4, "12.345678901", "n/a", null, 1e6, "7e2"];
const sent: Record<string, UsageEvent[]> = {};

/** A deterministic spread of events over May (and a little of April and June) with every kind of value. */
function eventsFor(code: string, n: number): EventIn[] {
  return Array.from({ length: n }, (_, i) => {
    const t = start - 2 * HOUR + ((i * 7919) % (33 * 24)) * HOUR + ((i * 104_729) % HOUR);
    const properties: Record<string, unknown> = { tier: i % 3 === 0 ? "a" : "b", user: `u${i % 11}` };
    if (i % 4 !== 3) properties.region = ["eu", "us", "asia"][i % 3];
    const v = VALUES[i % VALUES.length];
    if (v !== null) properties.v = v;
    if (i % 5 === 4) properties.operation_type = "remove";
    return {
      transaction_id: `${code}-${i}`,
      external_subscription_id: "sub_agg",
      code,
      timestamp_ms: t,
      properties_json: JSON.stringify(properties),
    };
  });
}

beforeAll(async () => {
  h = await startUsageHarness("usage_aggregate");
  for (const m of metrics) {
    h.copies.addMetric(org, {
      ...m,
      filters: [
        { key: "region", values: ["eu", "us", "asia"] },
        { key: "tier", values: ["a", "b"] },
      ],
    } as never);
    const events = eventsFor(m.code, 240);
    for (let i = 0; i < events.length; i += 60) await h.ingest(org, events.slice(i, i + 60));
    sent[m.code] = events.map((e) => ({
      transaction_id: e.transaction_id,
      timestamp: e.timestamp_ms!,
      properties: JSON.parse(e.properties_json!),
    }));
  }
  // storage applies ingest messages in order: once the last metric's events are in its buckets' pages, all are
  const last = {
    organizationId: org,
    externalSubscriptionId: "sub_agg",
    code: "weighted",
    from: new Date(WINDOWS[3][0]),
    to: new Date(WINDOWS[3][1]),
  };
  await waitFor(async () => (await h.parts.reader.events(last)).length === 240, {
    what: "all stored",
    timeoutMs: 20_000,
  });
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const WINDOWS = [
  ["2026-05-01T00:00:00Z", "2026-06-01T00:00:00Z"],
  ["2026-05-03T10:17:00Z", "2026-05-20T05:59:59.500Z"],
  ["2026-05-07T08:00:00Z", "2026-05-07T08:40:00Z"],
  ["2026-04-01T00:00:00Z", "2026-07-01T00:00:00Z"],
] as const;
const FILTERS: Record<string, string[]>[] = [{ region: ["eu"] }, { region: ["us"], tier: ["a"] }, { tier: ["b"] }];
/** A charge filter of those values, as the Aggregate request carries it (its properties play no part). */
const filterMessage = (values: Record<string, string[]>): CommonMessages.ChargeFilter__Output => ({
  properties: null,
  values: Object.fromEntries(Object.entries(values).map(([key, accepted]) => [key, { values: accepted }])),
});

/** The pricing library on the same events: the reference. */
function expected(code: string, from: string, to: string) {
  const metric = metrics.find((m) => m.code === code) as BillableMetric;
  const [f, t] = [Date.parse(from), Date.parse(to)];
  const events = sent[code]!.filter((e) => (e.timestamp as number) >= f && (e.timestamp as number) < t).sort(
    (a, b) => (a.timestamp as number) - (b.timestamp as number),
  );
  const options = { from: new Date(f), to: new Date(t - 1), periodDays: (t - f) / 86_400_000 };
  const run = (list: readonly UsageEvent[]) => {
    const r = aggregate(metric, list, options);
    return { units: r.units.toFixed(), events_count: r.eventsCount };
  };
  const metricFilters = [
    { key: "region", values: ["eu", "us", "asia"] },
    { key: "tier", values: ["a", "b"] },
  ];
  const { byFilter, unmatched } = bucketEventsByFilter(
    events,
    FILTERS.map((values) => ({ values })),
    metricFilters,
  );
  return {
    total: run(events),
    filters: [
      ...byFilter.map((list, i) => ({ filter_values: filterValuesToProto(FILTERS[i]), ...run(list) })),
      { filter_values: {}, ...run(unmatched) },
    ],
    groups: groupEvents(events, ["tier"]).map((g) => ({ grouped_by: groupedByToProto(g.groupedBy), ...run(g.events) })),
    running: aggregate(metric, events, {
      ...options,
      freeUnits: { free_units_per_events: Math.max(1, events.length) },
    }).runningTotal!.map((d) => d.toFixed()),
  };
}

describe("Aggregate", () => {
  for (const m of metrics) {
    it(`${m.code}: equals the pricing library over [from, to), with filters and groups`, async () => {
      for (const [from, to] of WINDOWS) {
        const want = expected(m.code, from, to);
        const key = { organization_id: org, external_subscription_id: "sub_agg", code: m.code, from, to };
        const plain = await h.aggregate(key);
        expect({ units: plain.units, events_count: Number(plain.events_count) }, `${from}..${to}`).toEqual(want.total);
        const detailed = await h.aggregate({
          ...key,
          filters: FILTERS.map(filterMessage),
          grouped_by: ["tier"],
          with_running_totals: true,
        });
        expect({ units: detailed.units, events_count: Number(detailed.events_count) }).toEqual(want.total);
        expect(detailed.filters!.map((b) => ({ ...b, events_count: Number(b.events_count) }))).toEqual(want.filters);
        expect(detailed.groups!.map((b) => ({ ...b, events_count: Number(b.events_count) }))).toEqual(want.groups);
        expect(detailed.running_totals).toEqual(want.running);
      }
    });
  }

  it("stays exact when the metric was unknown, or aggregated another field, when its events were stored", async () => {
    const events = eventsFor("late", 120).map((e) => ({ ...e, external_subscription_id: "sub_late" }));
    const query = {
      organizationId: org,
      externalSubscriptionId: "sub_late",
      code: "late",
      from: new Date(WINDOWS[3][0]),
      to: new Date(WINDOWS[3][1]),
    };
    const stored = (n: number) =>
      waitFor(async () => (await h.parts.reader.events(query)).length === n, { what: `${n} stored` });
    await h.ingest(org, events.slice(0, 60));
    await stored(60);
    h.copies.addMetric(org, { code: "late", aggregation_type: "sum_agg", field_name: "user" });
    await h.ingest(org, events.slice(60));
    await stored(120);
    h.copies.addMetric(org, { code: "late", aggregation_type: "sum_agg", field_name: "v" });
    const sent = events.map((e) => ({ timestamp: e.timestamp_ms!, properties: JSON.parse(e.properties_json!) }));
    for (const [from, to] of WINDOWS) {
      const [f, t] = [Date.parse(from), Date.parse(to)];
      const want = aggregate(
        { aggregation_type: "sum_agg", field_name: "v" },
        sent.filter((e) => e.timestamp >= f && e.timestamp < t),
      );
      const got = await h.aggregate({
        organization_id: org,
        external_subscription_id: "sub_late",
        code: "late",
        from,
        to,
      });
      expect([got.units, Number(got.events_count)]).toEqual([want.units.toFixed(), want.eventsCount]);
    }
  });

  it("reads many periods at once as it reads each one (a billing batch's single read)", async () => {
    const queries = metrics.flatMap((m) =>
      WINDOWS.map(([from, to]) => ({
        organizationId: org,
        externalSubscriptionId: "sub_agg",
        code: m.code,
        from: new Date(from),
        to: new Date(to),
      })),
    );
    queries.push(
      { ...queries[0]!, organizationId: randomUUID() },
      { ...queries[1]!, externalSubscriptionId: "nobody" },
    );
    const many = await h.parts.reader.eventsOfMany(queries);
    const one = await Promise.all(queries.map((q) => h.parts.reader.events(q)));
    expect(many).toEqual(one);
    // the events fall late in May: the whole-month windows hold them for every metric, the others none
    expect(
      many
        .slice(0, -2)
        .filter((_, i) => i % WINDOWS.length === 0 || i % WINDOWS.length === 3)
        .every((list) => list.length > 0),
    ).toBe(true);
    expect(many.slice(-2)).toEqual([[], []]);
  });

  it("reads many periods' units at once from the buckets' partials, as the pricing library aggregates their events (a billing batch's priced-from-units charges)", async () => {
    const fast = metrics.filter((m) => ["count_agg", "sum_agg", "max_agg"].includes(m.aggregation_type!));
    const queries = fast.flatMap((m) =>
      WINDOWS.map(([from, to]) => ({
        organizationId: org,
        externalSubscriptionId: "sub_agg",
        code: m.code,
        from: new Date(from),
        to: new Date(to),
        metric: m as BillableMetric,
      })),
    );
    queries.push({ ...queries[0]!, organizationId: randomUUID() });
    const units = await h.parts.reader.unitsOfMany(queries);
    queries.slice(0, -1).forEach((q, i) => {
      const want = expected(q.code, q.from.toISOString(), q.to.toISOString()).total;
      expect(
        { units: units[i]!.units.toFixed(), events_count: units[i]!.eventsCount },
        `${q.code} ${q.from.toISOString()}..${q.to.toISOString()}`,
      ).toEqual(want);
    });
    expect([units.at(-1)!.units.toFixed(), units.at(-1)!.eventsCount]).toEqual(["0", 0]);
  });

  it("sees nothing of another organization's subscription", async () => {
    const other = randomUUID();
    h.copies.addMetric(other, { code: "count" });
    const r = await h.aggregate({
      organization_id: other,
      external_subscription_id: "sub_agg",
      code: "count",
      from: WINDOWS[3][0],
      to: WINDOWS[3][1],
    });
    expect([r.units, Number(r.events_count)]).toEqual(["0", 0]);
  });

  it("answers 404 for an unknown metric", async () => {
    const err = await h
      .aggregate({
        organization_id: org,
        external_subscription_id: "sub_agg",
        code: "nope",
        from: WINDOWS[0][0],
        to: WINDOWS[0][1],
      })
      .catch((e) => e);
    expect(err.code).toBe("billable_metric_not_found");
  });
});
