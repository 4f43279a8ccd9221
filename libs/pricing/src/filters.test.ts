import { describe, expect, it } from "vitest";
import type { UsageEvent } from "./aggregations/types";
import {
  ALL_FILTER_VALUES,
  type ChargeFilter,
  bucketEventsByFilter,
  eventMatchesFilter,
  payInAdvanceFilterIndex,
} from "./filters";
import { groupEvents } from "./grouping";

const ev = (properties: Record<string, unknown>): UsageEvent => ({ timestamp: "2024-03-02T00:00:00Z", properties });
const metricFilters = [
  { key: "region", values: ["eu", "us", "asia"] },
  { key: "tier", values: ["gold", "silver"] },
  { key: "cloud", values: ["aws", "gcp"] },
];

describe("charge filters", () => {
  it("matches when every key of the filter has an accepted value", () => {
    const filter: ChargeFilter = { values: { region: ["eu", "us"], tier: ["gold"] } };
    expect(eventMatchesFilter(ev({ region: "eu", tier: "gold", other: 1 }), filter)).toBe(true);
    expect(eventMatchesFilter(ev({ region: "eu" }), filter)).toBe(false);
    expect(eventMatchesFilter(ev({ region: "asia", tier: "gold" }), filter)).toBe(false);
  });

  it("accepts every value of the metric filter with __ALL_FILTER_VALUES__", () => {
    const filter: ChargeFilter = { values: { region: [ALL_FILTER_VALUES] } };
    expect(eventMatchesFilter(ev({ region: "asia" }), filter, metricFilters)).toBe(true);
    expect(eventMatchesFilter(ev({ region: "mars" }), filter, metricFilters)).toBe(false);
  });

  it("does not double count: an event goes to the most specific filter only", () => {
    const filters: ChargeFilter[] = [{ values: { region: ["eu"] } }, { values: { region: ["eu"], tier: ["gold"] } }];
    const events = [ev({ region: "eu", tier: "gold" }), ev({ region: "eu", tier: "silver" }), ev({ region: "us" })];
    const { byFilter, unmatched } = bucketEventsByFilter(events, filters, metricFilters);
    expect(byFilter.map((b) => b.length)).toEqual([1, 1]);
    expect(unmatched).toHaveLength(1);
  });

  it("treats a strict subset of values as more specific", () => {
    const filters: ChargeFilter[] = [{ values: { region: ["eu", "us"] } }, { values: { region: ["eu"] } }];
    const { byFilter } = bucketEventsByFilter([ev({ region: "eu" }), ev({ region: "us" })], filters, metricFilters);
    expect(byFilter.map((b) => b.length)).toEqual([1, 1]);
  });

  it("gives identical filters' events to the oldest one", () => {
    const filters: ChargeFilter[] = [
      { values: { region: ["eu"] }, created_at: "2024-02-01T00:00:00Z" },
      { values: { region: ["eu"] }, created_at: "2024-01-01T00:00:00Z" },
    ];
    const { byFilter } = bucketEventsByFilter([ev({ region: "eu" })], filters, metricFilters);
    expect(byFilter.map((b) => b.length)).toEqual([0, 1]);
  });

  it("counts an event in both filters on disjoint keys", () => {
    const filters: ChargeFilter[] = [{ values: { region: ["eu"] } }, { values: { cloud: ["aws"] } }];
    const { byFilter } = bucketEventsByFilter([ev({ region: "eu", cloud: "aws" })], filters, metricFilters);
    expect(byFilter.map((b) => b.length)).toEqual([1, 1]);
  });

  it("picks the single matching filter with the most keys for pay in advance", () => {
    const filters: ChargeFilter[] = [
      { values: { region: ["eu"] } },
      { values: { region: ["eu"], tier: ["gold"] } },
      { values: { cloud: ["aws"] } },
    ];
    expect(payInAdvanceFilterIndex(ev({ region: "eu", tier: "gold", cloud: "aws" }), filters)).toBe(1);
    expect(payInAdvanceFilterIndex(ev({ region: "us" }), filters)).toBeNull();
  });
});

describe("pricing groups", () => {
  it("splits events by group values, a missing property being the null group", () => {
    const groups = groupEvents(
      [ev({ country: "fr" }), ev({ country: "de" }), ev({ country: "fr" }), ev({})],
      ["country"],
    );
    expect(groups.map((g) => [g.groupedBy["country"], g.events.length])).toEqual([
      ["fr", 2],
      ["de", 1],
      [null, 1],
    ]);
  });
});
