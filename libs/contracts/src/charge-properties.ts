import type { ChargeProperties, GroupedBy, PerUnitRange, RateRange } from "@billing/pricing";
import type * as C from "./generated/common-messages";

/**
 * The pricing library's charge shapes ⇄ the shared messages of proto/billing/common/v1/charges.proto,
 * in one place for every contract that carries them (catalog plans, usage, invoicing):
 * - charge properties (ChargeProperties): each model's fields; a field sent as null travels in
 *   `null_fields` and comes back as null, an absent one stays absent;
 * - charge filters (ChargeFilter): values, properties, display name;
 * - how a fee was priced (FeeAmountDetails): only the fields the charge model filled;
 * - pricing groups (`map<string, string>`): a null group value (the event lacks the property)
 *   travels as "", as invoices show it.
 * `…FromProto` takes what a call decoded (`__Output`); `…ToProto` what a call sends.
 */

type Props = Record<string, unknown>;

const NULLABLE_FIELDS = [
  "amount",
  "free_units",
  "fixed_amount",
  "free_units_per_events",
  "free_units_per_total_aggregation",
  "per_transaction_min_amount",
  "per_transaction_max_amount",
  "pricing_group_keys",
  "grouped_by",
] as const satisfies ReadonlyArray<keyof ChargeProperties>;

const text = (v: unknown): string | undefined => (v === null || v === undefined ? undefined : String(v));
const integer = (v: unknown): number | undefined => (v === null || v === undefined || v === "" ? undefined : Number(v));
const bound = (v: unknown): number => Number(v ?? 0);
const openBound = (v: unknown): number | undefined =>
  v === null || v === undefined || v === "" ? undefined : Number(v);
const list = (v: unknown): Props[] => (Array.isArray(v) ? (v as Props[]) : []);
const keys = (v: unknown): C.GroupKeys | undefined => (Array.isArray(v) ? { keys: v.map(String) } : undefined);

const perUnitRangeToProto = (r: Props): C.PerUnitRange => ({
  from_value: bound(r.from_value),
  to_value: openBound(r.to_value),
  per_unit_amount: text(r.per_unit_amount) ?? "0",
  flat_amount: text(r.flat_amount) ?? "0",
});
const rateRangeToProto = (r: Props): C.RateRange => ({
  from_value: bound(r.from_value),
  to_value: openBound(r.to_value),
  rate: text(r.rate) ?? "0",
  flat_amount: text(r.flat_amount) ?? "0",
});

/**
 * Charge properties (the pricing library's, as a model's schema left them, or as a read copy
 * carries them) → the message. Only the fields the pricing library knows travel.
 */
export function chargePropertiesToProto(properties: ChargeProperties | Props | null | undefined): C.ChargeProperties {
  const p: Props = properties ?? {};
  return {
    amount: text(p.amount),
    package_size: integer(p.package_size),
    free_units: integer(p.free_units),
    graduated_ranges: list(p.graduated_ranges).map(perUnitRangeToProto),
    graduated_percentage_ranges: list(p.graduated_percentage_ranges).map(rateRangeToProto),
    volume_ranges: list(p.volume_ranges).map(perUnitRangeToProto),
    rate: text(p.rate),
    fixed_amount: text(p.fixed_amount),
    free_units_per_events: integer(p.free_units_per_events),
    free_units_per_total_aggregation: text(p.free_units_per_total_aggregation),
    per_transaction_min_amount: text(p.per_transaction_min_amount),
    per_transaction_max_amount: text(p.per_transaction_max_amount),
    pricing_group_keys: keys(p.pricing_group_keys),
    grouped_by: keys(p.grouped_by),
    null_fields: NULLABLE_FIELDS.filter((f) => p[f] === null),
  };
}

const perUnitRangeFromProto = (r: C.PerUnitRange__Output): PerUnitRange => ({
  from_value: r.from_value,
  to_value: r.to_value ?? null,
  per_unit_amount: r.per_unit_amount,
  flat_amount: r.flat_amount,
});
const rateRangeFromProto = (r: C.RateRange__Output): RateRange => ({
  from_value: r.from_value,
  to_value: r.to_value ?? null,
  rate: r.rate,
  flat_amount: r.flat_amount,
});

/** The message → charge properties: the fields present, in the pricing library's shape (an absent message: {}). */
export function chargePropertiesFromProto(m: C.ChargeProperties__Output | null | undefined): ChargeProperties {
  if (!m) return {};
  const p: ChargeProperties = {};
  if (m.amount !== undefined) p.amount = m.amount;
  if (m.package_size !== undefined) p.package_size = m.package_size;
  if (m.free_units !== undefined) p.free_units = m.free_units;
  if (m.graduated_ranges.length > 0) p.graduated_ranges = m.graduated_ranges.map(perUnitRangeFromProto);
  if (m.graduated_percentage_ranges.length > 0)
    p.graduated_percentage_ranges = m.graduated_percentage_ranges.map(rateRangeFromProto);
  if (m.volume_ranges.length > 0) p.volume_ranges = m.volume_ranges.map(perUnitRangeFromProto);
  if (m.rate !== undefined) p.rate = m.rate;
  if (m.fixed_amount !== undefined) p.fixed_amount = m.fixed_amount;
  if (m.free_units_per_events !== undefined) p.free_units_per_events = m.free_units_per_events;
  if (m.free_units_per_total_aggregation !== undefined)
    p.free_units_per_total_aggregation = m.free_units_per_total_aggregation;
  if (m.per_transaction_min_amount !== undefined) p.per_transaction_min_amount = m.per_transaction_min_amount;
  if (m.per_transaction_max_amount !== undefined) p.per_transaction_max_amount = m.per_transaction_max_amount;
  if (m.pricing_group_keys) p.pricing_group_keys = [...m.pricing_group_keys.keys];
  if (m.grouped_by) p.grouped_by = [...m.grouped_by.keys];
  for (const field of m.null_fields)
    if ((NULLABLE_FIELDS as readonly string[]).includes(field)) (p as Props)[field] = null;
  return p;
}

/** A charge filter's values (event property key → accepted values) → the message's map. */
export function filterValuesToProto(
  values: Record<string, readonly string[]> | null | undefined,
): Record<string, C.FilterValues> {
  return Object.fromEntries(Object.entries(values ?? {}).map(([key, accepted]) => [key, { values: [...accepted] }]));
}

/** The message's map → a charge filter's values. */
export function filterValuesFromProto(
  values: Record<string, C.FilterValues__Output> | null | undefined,
): Record<string, string[]> {
  return Object.fromEntries(Object.entries(values ?? {}).map(([key, accepted]) => [key, [...accepted.values]]));
}

/** A charge filter as the pricing library (and the catalog's views) hold it. */
export interface ChargeFilterValue {
  invoice_display_name: string | null;
  properties: ChargeProperties;
  values: Record<string, string[]>;
}

export function chargeFilterToProto(filter: {
  invoice_display_name?: string | null;
  properties?: ChargeProperties | Props | null;
  values: Record<string, readonly string[]>;
}): C.ChargeFilter {
  return {
    invoice_display_name: filter.invoice_display_name ?? undefined,
    properties: chargePropertiesToProto(filter.properties),
    values: filterValuesToProto(filter.values),
  };
}

export function chargeFilterFromProto(m: C.ChargeFilter__Output): ChargeFilterValue {
  return {
    invoice_display_name: m.invoice_display_name ?? null,
    properties: chargePropertiesFromProto(m.properties),
    values: filterValuesFromProto(m.values),
  };
}

/** Pricing groups → `map<string, string>` (a null value, the event lacking the property: ""). */
export function groupedByToProto(
  groupedBy: GroupedBy | Record<string, string> | null | undefined,
): Record<string, string> {
  return Object.fromEntries(Object.entries(groupedBy ?? {}).map(([k, v]) => [k, v ?? ""]));
}

const str = (v: unknown) => (v === null || v === undefined ? undefined : String(v));
const num = (v: unknown) =>
  typeof v === "number" ? v : v === null || v === undefined || v === "" ? undefined : Number(v);

/**
 * The pricing library's amount_details (what a charge model filled) → the message. Fields the
 * message does not name are not carried (no charge model fills any).
 */
export function amountDetailsToProto(d: Record<string, unknown> | null | undefined): C.FeeAmountDetails {
  const details = d ?? {};
  const ranges = (key: string) => list(details[key]);
  return {
    plan_amount_cents: num(details.plan_amount_cents),
    graduated_ranges: ranges("graduated_ranges").map((r) => ({
      units: str(r.units) ?? "0.0",
      from_value: num(r.from_value) ?? 0,
      to_value: num(r.to_value),
      flat_unit_amount: str(r.flat_unit_amount) ?? "0.0",
      per_unit_amount: str(r.per_unit_amount) ?? "0.0",
      per_unit_total_amount: str(r.per_unit_total_amount) ?? "0.0",
      total_with_flat_amount: str(r.total_with_flat_amount) ?? "0.0",
    })),
    graduated_percentage_ranges: ranges("graduated_percentage_ranges").map((r) => ({
      units: str(r.units) ?? "0.0",
      from_value: num(r.from_value) ?? 0,
      to_value: num(r.to_value),
      flat_unit_amount: str(r.flat_unit_amount) ?? "0.0",
      rate: str(r.rate) ?? "0.0",
      per_unit_total_amount: str(r.per_unit_total_amount) ?? "0.0",
      total_with_flat_amount: str(r.total_with_flat_amount) ?? "0.0",
    })),
    free_units: str(details.free_units),
    paid_units: str(details.paid_units),
    per_package_size: num(details.per_package_size),
    per_package_unit_amount: str(details.per_package_unit_amount),
    per_unit_total_amount: str(details.per_unit_total_amount),
    units: str(details.units),
    free_events: num(details.free_events),
    rate: str(details.rate),
    paid_events: num(details.paid_events),
    fixed_fee_unit_amount: str(details.fixed_fee_unit_amount),
    fixed_fee_total_amount: str(details.fixed_fee_total_amount),
    min_max_adjustment_total_amount: str(details.min_max_adjustment_total_amount),
    per_unit_amount: str(details.per_unit_amount),
    flat_unit_amount: str(details.flat_unit_amount),
  };
}

/**
 * The message → amount_details as Lago's FeeObject shows them: only the fields the charge model
 * filled (absent fields and empty ranges are left out).
 */
export function amountDetailsFromProto(m: C.FeeAmountDetails__Output | null | undefined): Record<string, unknown> {
  if (!m) return {};
  const all: Record<string, unknown> = {
    ...m,
    graduated_ranges: m.graduated_ranges.map((r) => ({
      units: r.units,
      from_value: r.from_value,
      to_value: r.to_value ?? null,
      flat_unit_amount: r.flat_unit_amount,
      per_unit_amount: r.per_unit_amount,
      per_unit_total_amount: r.per_unit_total_amount,
      total_with_flat_amount: r.total_with_flat_amount,
    })),
    graduated_percentage_ranges: m.graduated_percentage_ranges.map((r) => ({
      units: r.units,
      from_value: r.from_value,
      to_value: r.to_value ?? null,
      flat_unit_amount: r.flat_unit_amount,
      rate: r.rate,
      per_unit_total_amount: r.per_unit_total_amount,
      total_with_flat_amount: r.total_with_flat_amount,
    })),
  };
  return Object.fromEntries(
    Object.entries(all).filter(
      ([k, v]) => !k.startsWith("_") && v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0),
    ),
  );
}
