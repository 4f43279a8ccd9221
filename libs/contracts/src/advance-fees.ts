import { z } from "zod";
import {
  amountDetailsFromProto,
  amountDetailsToProto,
  chargePropertiesFromProto,
  chargePropertiesToProto,
  filterValuesFromProto,
  filterValuesToProto,
  groupedByToProto,
} from "./charge-properties";
import { taxView } from "./events/fields";
import type * as U from "./generated/usage-messages";

/**
 * What a pay-in-advance fee shows of its charge (billing-rules §1.12): the subscription, the
 * charge, its filter, the metric and the charges period it was priced in. The same for every
 * fee of one charge, filter and period: on the wire, and in the usage service's stored answers,
 * it is written once per envelope (advanceFeeSetSchema).
 */
export const advanceFeeChargeSchema = z.object({
  organization_id: z.string(),
  subscription_id: z.string(),
  external_subscription_id: z.string(),
  customer_id: z.string(),
  external_customer_id: z.string(),
  plan_id: z.string(),
  plan_code: z.string(),
  charge_id: z.string(),
  charge_filter_index: z.number().int().nullable(),
  filter: z
    .object({ values: z.record(z.string(), z.array(z.string())), invoice_display_name: z.string().nullable() })
    .nullable(),
  metric: z.object({
    svc_id: z.string(),
    code: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    aggregation_type: z.string(),
  }),
  charge_model: z.string(),
  invoice_display_name: z.string().nullable(),
  invoiceable: z.boolean(),
  regroup_paid_fees: z.string().nullable(),
  prorated: z.boolean(),
  currency: z.string(),
  /** the properties it was priced with (the filter's or the charge's) */
  properties: z.record(z.string(), z.unknown()),
  charge_taxes: z.array(taxView),
  plan_taxes: z.array(taxView),
  /** the charges period (ISO instants) */
  from: z.string(),
  to: z.string(),
  timezone: z.string(),
  /**
   * the version of the charge it was priced with: the content hash of the charge, metric and
   * currency, whose snapshot the usage service keeps once (advance_charge_versions) so that an
   * audit replays the fee on the charge as it was priced. Absent in fees priced before versions.
   */
  charge_version: z.string().nullable().optional(),
});

/** What is the fee's own: the event it was priced for, and the amounts the pricing library computed. */
const advanceFeeOwnShape = {
  /** derived from (organization, event key, charge, filter): the same event and charge always give the same fee */
  id: z.string(),
  event_key: z.string(),
  event_svc_id: z.string(),
  event_transaction_id: z.string(),
  event_timestamp: z.string(),
  /** decimal text */
  units: z.string(),
  amount_cents: z.number().int(),
  precise_amount_cents: z.string(),
  unit_amount_cents: z.number().int(),
  precise_unit_amount: z.string(),
  amount_details: z.record(z.string(), z.unknown()),
  grouped_by: z.record(z.string(), z.string().nullable()),
};

/**
 * One fee a stored event created on a pay-in-advance charge (billing-rules §1.12), as the usage
 * service prices it (AdvanceFeeService) and invoicing stores it: the amounts the pricing library
 * computed, and everything Lago's FeeObject shows of the charge, its filter, the metric and the
 * subscription. Taxes are not applied here: invoicing selects them (charge > plan > customer >
 * billing entity) and applies them. The one definition of the seam: the usage service builds
 * `AdvanceFeeData` values and writes them with `advanceFeesText`; invoicing reads them with
 * `parseAdvanceFees`.
 */
export const advanceFeeSchema = advanceFeeChargeSchema.extend(advanceFeeOwnShape);
export type AdvanceFeeData = z.output<typeof advanceFeeSchema>;

/**
 * The fees of one envelope as they travel and are kept: each charge (with its filter and period)
 * once, each fee its own fields and the index of its charge. A fee's charge part is about two thirds
 * of it: the text is a third as long, and parsing checks each charge once, not once per fee.
 */
export const advanceFeeSetSchema = z.object({
  charges: z.array(advanceFeeChargeSchema),
  fees: z.array(z.object({ charge: z.number().int().nonnegative(), ...advanceFeeOwnShape })),
});

/** The fees as a plain array (how answers were kept before advanceFeeSetSchema; still read). */
export const advanceFeesSchema = z.array(advanceFeeSchema);

const CHARGE_FIELDS = Object.keys(advanceFeeChargeSchema.shape) as Array<keyof z.output<typeof advanceFeeChargeSchema>>;

/**
 * Fees of the same subscription, plan, charge, filter, period and charge version share one charge
 * part: within one envelope they were priced from the same reading of the catalog's copies, so that
 * part is the same for all of them. `partOf` makes a charge's part from its first fee.
 */
function sharedCharges<P>(
  fees: readonly AdvanceFeeData[],
  partOf: (fee: AdvanceFeeData) => P,
): { charges: P[]; chargeOf: number[] } {
  const charges: P[] = [];
  const index = new Map<string, number>();
  const chargeOf = fees.map((fee) => {
    const key = `${fee.subscription_id}|${fee.plan_id}|${fee.charge_id}|${fee.charge_filter_index ?? ""}|${fee.from}|${fee.to}|${fee.charge_version ?? ""}`;
    let charge = index.get(key);
    if (charge === undefined) {
      charge = charges.length;
      index.set(key, charge);
      charges.push(partOf(fee));
    }
    return charge;
  });
  return { charges, chargeOf };
}

/** The JSON text of one envelope's fees (advanceFeeSetSchema): how the usage service keeps its answers. */
export function advanceFeesText(fees: readonly AdvanceFeeData[]): string {
  const { charges, chargeOf } = sharedCharges(fees, (fee) => Object.fromEntries(CHARGE_FIELDS.map((f) => [f, fee[f]])));
  const own = fees.map((fee, i) => {
    const charge = chargeOf[i]!;
    // field by field (a loop over the field names made a slow dictionary object per fee)
    return {
      charge,
      id: fee.id,
      event_key: fee.event_key,
      event_svc_id: fee.event_svc_id,
      event_transaction_id: fee.event_transaction_id,
      event_timestamp: fee.event_timestamp,
      units: fee.units,
      amount_cents: fee.amount_cents,
      precise_amount_cents: fee.precise_amount_cents,
      unit_amount_cents: fee.unit_amount_cents,
      precise_unit_amount: fee.precise_unit_amount,
      amount_details: fee.amount_details,
      grouped_by: fee.grouped_by,
    } satisfies Required<z.input<typeof advanceFeeSetSchema>["fees"][number]>;
  });
  return JSON.stringify({ charges, fees: own });
}

/**
 * Parses fees the usage service answered or kept (JSON text: advanceFeeSetSchema, or the plain
 * array kept before it); a malformed text throws (the envelope is retried, nothing is stored).
 * The fees of one charge share its nested values (metric, filter, properties, taxes): read them,
 * never change them.
 */
export function parseAdvanceFees(json: string): AdvanceFeeData[] {
  if (!json) return [];
  const raw: unknown = JSON.parse(json);
  if (Array.isArray(raw)) return advanceFeesSchema.parse(raw);
  const set = advanceFeeSetSchema.parse(raw);
  return set.fees.map((own) => {
    const c = set.charges[own.charge];
    if (!c) throw new Error(`advance fee ${own.id} names charge ${own.charge} of ${set.charges.length}`);
    // field by field (two spreads per fee were most of this function's time in a burst)
    return {
      organization_id: c.organization_id,
      subscription_id: c.subscription_id,
      external_subscription_id: c.external_subscription_id,
      customer_id: c.customer_id,
      external_customer_id: c.external_customer_id,
      plan_id: c.plan_id,
      plan_code: c.plan_code,
      charge_id: c.charge_id,
      charge_filter_index: c.charge_filter_index,
      filter: c.filter,
      metric: c.metric,
      charge_model: c.charge_model,
      invoice_display_name: c.invoice_display_name,
      invoiceable: c.invoiceable,
      regroup_paid_fees: c.regroup_paid_fees,
      prorated: c.prorated,
      currency: c.currency,
      properties: c.properties,
      charge_taxes: c.charge_taxes,
      plan_taxes: c.plan_taxes,
      from: c.from,
      to: c.to,
      timezone: c.timezone,
      charge_version: c.charge_version,
      id: own.id,
      event_key: own.event_key,
      event_svc_id: own.event_svc_id,
      event_transaction_id: own.event_transaction_id,
      event_timestamp: own.event_timestamp,
      units: own.units,
      amount_cents: own.amount_cents,
      precise_amount_cents: own.precise_amount_cents,
      unit_amount_cents: own.unit_amount_cents,
      precise_unit_amount: own.precise_unit_amount,
      amount_details: own.amount_details,
      grouped_by: own.grouped_by,
      // every field named (charge_version stays absent in fees priced before versions)
    } satisfies Record<keyof AdvanceFeeData, unknown>;
  });
}

/** One envelope's fees → the AdvanceFeeSet message (each charge part once). */
export function advanceFeeSetToProto(fees: readonly AdvanceFeeData[]): U.AdvanceFeeSet {
  const tax = (t: AdvanceFeeData["charge_taxes"][number]): U.AdvanceFeeTax => ({
    svc_id: t.svc_id,
    name: t.name,
    code: t.code,
    description: t.description ?? undefined,
    rate: t.rate,
    applied_to_organization: t.applied_to_organization,
    created_at: t.created_at,
  });
  const { charges, chargeOf } = sharedCharges(fees, (c): U.AdvanceFeeCharge => ({
    organization_id: c.organization_id,
    subscription_id: c.subscription_id,
    external_subscription_id: c.external_subscription_id,
    customer_id: c.customer_id,
    external_customer_id: c.external_customer_id,
    plan_id: c.plan_id,
    plan_code: c.plan_code,
    charge_id: c.charge_id,
    charge_filter_index: c.charge_filter_index ?? undefined,
    filter: c.filter
      ? {
          values: filterValuesToProto(c.filter.values),
          invoice_display_name: c.filter.invoice_display_name ?? undefined,
        }
      : undefined,
    metric: { ...c.metric, description: c.metric.description ?? undefined },
    charge_model: c.charge_model,
    invoice_display_name: c.invoice_display_name ?? undefined,
    invoiceable: c.invoiceable,
    regroup_paid_fees: c.regroup_paid_fees ?? undefined,
    prorated: c.prorated,
    currency: c.currency,
    properties: chargePropertiesToProto(c.properties),
    charge_taxes: c.charge_taxes.map(tax),
    plan_taxes: c.plan_taxes.map(tax),
    from: c.from,
    to: c.to,
    timezone: c.timezone,
    charge_version: c.charge_version ?? undefined,
  }));
  return {
    charges,
    fees: fees.map((fee, i) => ({
      charge: chargeOf[i]!,
      id: fee.id,
      event_key: fee.event_key,
      event_svc_id: fee.event_svc_id,
      event_transaction_id: fee.event_transaction_id,
      event_timestamp: fee.event_timestamp,
      units: fee.units,
      amount_cents: fee.amount_cents,
      precise_amount_cents: fee.precise_amount_cents,
      unit_amount_cents: fee.unit_amount_cents,
      precise_unit_amount: fee.precise_unit_amount,
      amount_details: amountDetailsToProto(fee.amount_details),
      grouped_by: groupedByToProto(fee.grouped_by),
    })),
  };
}

/**
 * The AdvanceFeeSet message → the fees (a fee naming a charge part the set lacks throws: the
 * batch is retried, nothing is stored). The fees of one charge share its nested values (metric,
 * filter, properties, taxes): read them, never change them.
 */
export function advanceFeesFromProto(set: U.AdvanceFeeSet__Output | null | undefined): AdvanceFeeData[] {
  if (!set) return [];
  const tax = (t: U.AdvanceFeeTax__Output): AdvanceFeeData["charge_taxes"][number] => ({
    svc_id: t.svc_id,
    name: t.name,
    code: t.code,
    description: t.description ?? null,
    rate: t.rate,
    ...(t.applied_to_organization !== undefined ? { applied_to_organization: t.applied_to_organization } : {}),
    ...(t.created_at !== undefined ? { created_at: t.created_at } : {}),
  });
  const charges = set.charges.map((c) => ({
    organization_id: c.organization_id,
    subscription_id: c.subscription_id,
    external_subscription_id: c.external_subscription_id,
    customer_id: c.customer_id,
    external_customer_id: c.external_customer_id,
    plan_id: c.plan_id,
    plan_code: c.plan_code,
    charge_id: c.charge_id,
    charge_filter_index: c.charge_filter_index ?? null,
    filter: c.filter
      ? { values: filterValuesFromProto(c.filter.values), invoice_display_name: c.filter.invoice_display_name ?? null }
      : null,
    metric: {
      svc_id: c.metric?.svc_id ?? "",
      code: c.metric?.code ?? "",
      name: c.metric?.name ?? "",
      description: c.metric?.description ?? null,
      aggregation_type: c.metric?.aggregation_type ?? "",
    },
    charge_model: c.charge_model,
    invoice_display_name: c.invoice_display_name ?? null,
    invoiceable: c.invoiceable,
    regroup_paid_fees: c.regroup_paid_fees ?? null,
    prorated: c.prorated,
    currency: c.currency,
    properties: chargePropertiesFromProto(c.properties),
    charge_taxes: c.charge_taxes.map(tax),
    plan_taxes: c.plan_taxes.map(tax),
    from: c.from,
    to: c.to,
    timezone: c.timezone,
    charge_version: c.charge_version,
  }));
  return set.fees.map((own) => {
    const c = charges[own.charge];
    if (!c) throw new Error(`advance fee ${own.id} names charge ${own.charge} of ${charges.length}`);
    // field by field (a spread per fee was most of this function's time in a burst)
    return {
      organization_id: c.organization_id,
      subscription_id: c.subscription_id,
      external_subscription_id: c.external_subscription_id,
      customer_id: c.customer_id,
      external_customer_id: c.external_customer_id,
      plan_id: c.plan_id,
      plan_code: c.plan_code,
      charge_id: c.charge_id,
      charge_filter_index: c.charge_filter_index,
      filter: c.filter,
      metric: c.metric,
      charge_model: c.charge_model,
      invoice_display_name: c.invoice_display_name,
      invoiceable: c.invoiceable,
      regroup_paid_fees: c.regroup_paid_fees,
      prorated: c.prorated,
      currency: c.currency,
      properties: c.properties,
      charge_taxes: c.charge_taxes,
      plan_taxes: c.plan_taxes,
      from: c.from,
      to: c.to,
      timezone: c.timezone,
      charge_version: c.charge_version,
      id: own.id,
      event_key: own.event_key,
      event_svc_id: own.event_svc_id,
      event_transaction_id: own.event_transaction_id,
      event_timestamp: own.event_timestamp,
      units: own.units,
      amount_cents: own.amount_cents,
      precise_amount_cents: own.precise_amount_cents,
      unit_amount_cents: own.unit_amount_cents,
      precise_unit_amount: own.precise_unit_amount,
      amount_details: amountDetailsFromProto(own.amount_details),
      grouped_by: own.grouped_by,
    } satisfies Record<keyof AdvanceFeeData, unknown>;
  });
}
