import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  AGGREGATION_TYPES,
  CHARGE_MODELS,
  FIXED_CHARGE_MODELS,
  INVOICING_REASONS,
  PLAN_INTERVALS,
  ROUNDING_FUNCTIONS,
  SUBSCRIPTION_STATUSES,
  WEIGHTED_INTERVALS,
} from "./index";

const schemas = JSON.parse(
  readFileSync(new URL("../../../../shared/reference/lago-openapi-svc.json", import.meta.url), "utf8"),
).components.schemas;
const lagoEnum = (schema: string, field: string): string[] =>
  schemas[schema].properties[field].enum.filter((v: string | null) => v !== null);
const sorted = (values: readonly string[]) => [...values].sort();

describe("vocabularies", () => {
  it("are exactly Lago's where its API lists them", () => {
    expect(sorted(AGGREGATION_TYPES)).toEqual(sorted(lagoEnum("BillableMetricObject", "aggregation_type")));
    expect(sorted(ROUNDING_FUNCTIONS)).toEqual(sorted(lagoEnum("BillableMetricObject", "rounding_function")));
    expect(sorted(WEIGHTED_INTERVALS)).toEqual(sorted(lagoEnum("BillableMetricObject", "weighted_interval")));
    expect(sorted(PLAN_INTERVALS)).toEqual(sorted(lagoEnum("PlanObject", "interval")));
    expect(sorted(PLAN_INTERVALS)).toEqual(sorted(lagoEnum("WalletRecurringTransactionRule", "interval")));
    expect(sorted(FIXED_CHARGE_MODELS)).toEqual(sorted(lagoEnum("FixedChargeObject", "charge_model")));
    expect(sorted(INVOICING_REASONS)).toEqual(sorted(lagoEnum("BillingPeriodObject", "invoicing_reason")));
  });

  it("hold Lago's subscription statuses but incomplete (not offered here)", () => {
    expect(sorted(SUBSCRIPTION_STATUSES)).toEqual(
      sorted(lagoEnum("SubscriptionObject", "status").filter((s) => s !== "incomplete")),
    );
  });

  it("have no value twice, and the fixed charge models are charge models", () => {
    for (const list of [AGGREGATION_TYPES, CHARGE_MODELS, PLAN_INTERVALS, INVOICING_REASONS, SUBSCRIPTION_STATUSES])
      expect(new Set(list).size).toBe(list.length);
    expect(FIXED_CHARGE_MODELS.every((m) => (CHARGE_MODELS as readonly string[]).includes(m))).toBe(true);
  });
});
