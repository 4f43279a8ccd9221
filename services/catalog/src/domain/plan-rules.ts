import { CHARGE_MODELS, FIXED_CHARGE_MODELS, isCurrencyCode, PLAN_INTERVALS } from "@billing/codes";
import {
  ALL_FILTER_VALUES,
  chargePropertiesSchema,
  propertiesErrorDetails,
  type ChargeModelName,
} from "@billing/pricing";
import { Violations } from "./patch";
import type { ChargeFilterRecord, MetricFilter, Plan } from "./types";

export const PLAN_PATCHABLE = [
  "name",
  "code",
  "description",
  "invoice_display_name",
  "interval",
  "amount_cents",
  "amount_currency",
  "trial_period",
  "pay_in_advance",
  "bill_charges_monthly",
  "bill_fixed_charges_monthly",
  "metadata",
] as const;

const nonNegativeInt = (v: unknown) => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;

/** The invariants of a plan's own fields. Returns Lago's error_details, or null. */
export function planViolations(plan: Plan): Record<string, string[]> | null {
  const v = new Violations();
  v.mandatory("name", plan.name);
  v.mandatory("code", plan.code);
  if (v.mandatory("interval", plan.interval)) v.oneOf("interval", plan.interval, PLAN_INTERVALS);
  if (v.mandatory("amount_cents", plan.amount_cents) && !nonNegativeInt(plan.amount_cents))
    v.add("amount_cents", "value_is_invalid");
  if (v.mandatory("amount_currency", plan.amount_currency) && !isCurrencyCode(plan.amount_currency))
    v.add("amount_currency", "value_is_invalid");
  v.mandatory("pay_in_advance", plan.pay_in_advance);
  if (plan.trial_period !== null && !(typeof plan.trial_period === "number" && plan.trial_period >= 0))
    v.add("trial_period", "value_is_invalid");
  if (plan.bill_charges_monthly && !["yearly", "semiannual"].includes(plan.interval))
    v.add("bill_charges_monthly", "value_is_invalid");
  if (plan.bill_fixed_charges_monthly && !["yearly", "semiannual"].includes(plan.interval))
    v.add("bill_fixed_charges_monthly", "value_is_invalid");
  if (plan.minimum_commitment && !nonNegativeInt(plan.minimum_commitment.amount_cents))
    v.add("minimum_commitment.amount_cents", "value_is_invalid");
  plan.usage_thresholds.forEach((t, i) => {
    if (!nonNegativeInt(t.amount_cents)) v.add(`usage_thresholds.${i}.amount_cents`, "value_is_invalid");
  });
  return v.result();
}

function addAll(v: Violations, prefix: string, details: Record<string, string[]>) {
  for (const [key, codes] of Object.entries(details)) for (const code of codes) v.add(`${prefix}.${key}`, code);
}

/**
 * Validates properties against the pricing library's schema of `model`; errors go to
 * `<prefix>.properties.<path>`. Returns the parsed (normalized) properties, or null when invalid.
 */
export function checkedProperties(
  v: Violations,
  prefix: string,
  model: string,
  properties: unknown,
): Record<string, unknown> | null {
  const result = chargePropertiesSchema(model as ChargeModelName).safeParse(properties ?? {});
  if (result.success) return result.data as Record<string, unknown>;
  addAll(v, prefix, propertiesErrorDetails(result.error));
  return null;
}

export interface ChargeRulesInput {
  charge_model: string;
  pay_in_advance: boolean;
  invoiceable: boolean;
  min_amount_cents: number;
  regroup_paid_fees: string | null;
  properties: unknown;
  filters: { invoice_display_name?: string | null; properties?: unknown; values?: Record<string, string[]> | null }[];
}

/**
 * Checks one usage charge (errors keyed `charges.<index>.…`) against the filters of its metric.
 * Returns the normalized properties and filters (meaningful only when no violation was added).
 */
export function checkCharge(v: Violations, index: number, charge: ChargeRulesInput, metricFilters: MetricFilter[]) {
  const prefix = `charges.${index}`;
  if (!(CHARGE_MODELS as readonly string[]).includes(charge.charge_model)) {
    v.add(`${prefix}.charge_model`, "value_is_invalid");
    return { properties: {}, filters: [] as ChargeFilterRecord[] };
  }
  if (!nonNegativeInt(charge.min_amount_cents)) v.add(`${prefix}.min_amount_cents`, "value_is_invalid");
  if (!charge.invoiceable && !charge.pay_in_advance) v.add(`${prefix}.invoiceable`, "value_is_invalid");
  if (
    charge.regroup_paid_fees !== null &&
    (charge.regroup_paid_fees !== "invoice" || charge.invoiceable || !charge.pay_in_advance)
  ) {
    v.add(`${prefix}.regroup_paid_fees`, "value_is_invalid");
  }
  const properties = checkedProperties(v, prefix, charge.charge_model, charge.properties) ?? {};
  const filters = charge.filters.map((filter, j) => {
    const at = `${prefix}.filters.${j}`;
    const values = filter.values ?? {};
    if (Object.keys(values).length === 0) v.add(`${at}.values`, "value_is_mandatory");
    for (const [key, list] of Object.entries(values)) {
      const allowed = metricFilters.find((f) => f.key === key)?.values;
      if (!allowed || !Array.isArray(list) || list.length === 0) v.add(`${at}.values`, "value_is_invalid");
      else if (list.some((value) => value !== ALL_FILTER_VALUES && !allowed.includes(value)))
        v.add(`${at}.values`, "value_is_invalid");
    }
    return {
      invoice_display_name: filter.invoice_display_name ?? null,
      properties: checkedProperties(v, at, charge.charge_model, filter.properties) ?? {},
      values: Object.fromEntries(Object.entries(values).map(([k, list]) => [k, [...new Set(list)]])),
    };
  });
  return { properties, filters };
}

/** Checks one fixed charge (errors keyed `fixed_charges.<index>.…`); returns its normalized properties. */
export function checkFixedCharge(
  v: Violations,
  index: number,
  charge: { charge_model: string; units: number; properties: unknown },
) {
  const prefix = `fixed_charges.${index}`;
  if (!(FIXED_CHARGE_MODELS as readonly string[]).includes(charge.charge_model)) {
    v.add(`${prefix}.charge_model`, "value_is_invalid");
    return {};
  }
  if (!(typeof charge.units === "number" && Number.isFinite(charge.units) && charge.units >= 0))
    v.add(`${prefix}.units`, "value_is_invalid");
  return checkedProperties(v, prefix, charge.charge_model, charge.properties) ?? {};
}
