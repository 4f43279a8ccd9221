import { describe, expect, it } from "vitest";
import type { ChargeCopy, MetricCopy } from "./read-copies";
import {
  advanceChargeSnapshot,
  canonicalJson,
  chargeVersionOfJson,
  parseAdvanceChargeSnapshot,
} from "./charge-version";

const charge = {
  svc_id: "ch_1",
  svc_billable_metric_id: "bm_1",
  billable_metric_code: "calls",
  code: null,
  charge_model: "standard",
  pay_in_advance: true,
  invoiceable: true,
  prorated: false,
  min_amount_cents: 0,
  regroup_paid_fees: null,
  invoice_display_name: null,
  properties: { amount: "1" },
  filters: [{ invoice_display_name: "EU", properties: { amount: "2" }, values: { region: ["eu"] } }],
  taxes: [],
  created_at: null,
} as unknown as ChargeCopy;
const metric = {
  svc_id: "bm_1",
  organization_id: "org",
  name: "Calls",
  code: "calls",
  description: null,
  aggregation_type: "sum_agg",
  field_name: "n",
  recurring: false,
  filters: [],
  created_at: "2026-01-01T00:00:00.000Z",
  updated_at: "2026-01-01T00:00:00.000Z",
} as unknown as MetricCopy;

/** The same object with its keys in reverse order, at every depth. */
const reversed = (v: unknown): unknown =>
  v === null || typeof v !== "object"
    ? v
    : Array.isArray(v)
      ? v.map(reversed)
      : Object.fromEntries(
          Object.entries(v)
            .reverse()
            .map(([k, x]) => [k, reversed(x)]),
        );

describe("pay-in-advance charge versions", () => {
  it("are stable for the same charge, metric and currency, whatever the order of their keys", () => {
    const a = advanceChargeSnapshot(charge, metric, "EUR");
    expect(a.version).toMatch(/^[0-9a-f]{32}$/);
    expect(advanceChargeSnapshot(structuredClone(charge), structuredClone(metric), "EUR").version).toBe(a.version);
    expect(advanceChargeSnapshot(reversed(charge) as ChargeCopy, reversed(metric) as MetricCopy, "EUR").version).toBe(
      a.version,
    );
    expect(chargeVersionOfJson(a.json)).toBe(a.version);
    // checked with the views' schemas: the fields the fixtures leave out read as their defaults
    expect(parseAdvanceChargeSnapshot(a.json)).toMatchObject({ v: 1, charge, metric, currency: "EUR" });
    for (const bad of ["not json", "null", "{}", a.json.replace('"v":1', '"v":2')])
      expect(parseAdvanceChargeSnapshot(bad), bad).toBeNull();
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[2,{"e":0,"f":1}]},"b":1}',
    );
  });

  it("change with the charge's properties, its filters, the metric or the currency", () => {
    const base = advanceChargeSnapshot(charge, metric, "EUR").version;
    const variants = [
      advanceChargeSnapshot({ ...charge, properties: { amount: "1.5" } }, metric, "EUR"),
      advanceChargeSnapshot(
        { ...charge, filters: [{ ...charge.filters[0]!, properties: { amount: "3" } }] },
        metric,
        "EUR",
      ),
      advanceChargeSnapshot({ ...charge, charge_model: "package" }, metric, "EUR"),
      advanceChargeSnapshot(charge, { ...metric, field_name: "m" }, "EUR"),
      advanceChargeSnapshot(charge, { ...metric, aggregation_type: "max_agg" }, "EUR"),
      advanceChargeSnapshot(charge, metric, "USD"),
    ].map((s) => s.version);
    expect(new Set([base, ...variants]).size).toBe(variants.length + 1);
  });
});
