import {
  chargeFilterFromProto,
  chargeFilterToProto,
  chargePropertiesFromProto,
  chargePropertiesToProto,
  customerObjectOfText,
  customerObjectText,
  type CatalogMessages as M,
  type CommonMessages as C,
} from "@billing/contracts";
import { AppError } from "@billing/errors";
import type { Patch } from "../domain/patch";
import type { Plan } from "../domain/types";
import type { PlanView } from "../domain/views";
import type { ChargeInput, FixedChargeInput, PlanChange } from "../use-cases/plans/plan-change";
import { entitlementMessage } from "./entitlement-messages";
import { patchOf } from "./patch-messages";

/** Proto ⇄ domain for plans: PlanInput → PlanChange, PlanView → Plan. */

const nulls = (m: { null_fields?: string[] }): string[] => m.null_fields ?? [];

/** A proto ChargeFilter as sent → the use cases' filter input (absent properties: {}). */
export const chargeFilterOf = (f: C.ChargeFilter__Output) => chargeFilterFromProto(f);

/** Charge properties as sent: absent (or sent as null) when the message is. */
export const sentPropertiesOf = (m: C.ChargeProperties__Output | null | undefined) =>
  m ? chargePropertiesFromProto(m) : undefined;

/** The plan's metadata as sent: the customer's own JSON object, read with its schema (not an object: 400). */
function metadataOf(text: string): Record<string, unknown> {
  try {
    return customerObjectOfText(text);
  } catch {
    throw AppError.badRequest("metadata_json is not a JSON object");
  }
}

/** minimum_commitment as sent: absent (undefined), removed (null) or set. */
export function minimumCommitmentOf(
  m: M.PlanInput__Output | M.PlanOverridesInput__Output,
): PlanChange["minimumCommitment"] {
  const mc = m.minimum_commitment;
  if (nulls(m).includes("minimum_commitment")) return null;
  return mc
    ? {
        amount_cents: mc.amount_cents,
        invoice_display_name: mc.invoice_display_name ?? null,
        tax_codes: mc.tax_codes ?? [],
      }
    : undefined;
}

/** usage_thresholds as sent (undefined when not sent). */
export function usageThresholdsOf(
  m: M.PlanInput__Output | M.PlanOverridesInput__Output,
): PlanChange["usageThresholds"] {
  return m.usage_thresholds_set
    ? (m.usage_thresholds ?? []).map((t) => ({
        threshold_display_name: t.threshold_display_name ?? null,
        amount_cents: t.amount_cents,
        recurring: t.recurring ?? false,
      }))
    : undefined;
}

function chargeOf(m: M.ChargeInput__Output): ChargeInput {
  return {
    ...(patchOf(m, [
      "id",
      "code",
      "pay_in_advance",
      "invoiceable",
      "prorated",
      "min_amount_cents",
      "regroup_paid_fees",
      "invoice_display_name",
    ]) as Partial<ChargeInput>),
    billable_metric_id: m.billable_metric_id,
    charge_model: m.charge_model,
    properties: sentPropertiesOf(m.properties),
    filters: m.filters_set ? (m.filters ?? []).map(chargeFilterOf) : undefined,
    tax_codes: m.tax_codes_set ? (m.tax_codes ?? []) : undefined,
  };
}

function fixedChargeOf(m: M.FixedChargeInput__Output): FixedChargeInput {
  return {
    ...(patchOf(m, [
      "id",
      "code",
      "pay_in_advance",
      "prorated",
      "units",
      "invoice_display_name",
    ]) as Partial<FixedChargeInput>),
    add_on_id: m.add_on_id,
    charge_model: m.charge_model,
    properties: sentPropertiesOf(m.properties),
    tax_codes: m.tax_codes_set ? (m.tax_codes ?? []) : undefined,
  };
}

/** The proto PlanInput → the use cases' PlanChange. */
export function planChangeOf(input: M.PlanInput__Output | null): PlanChange {
  const m = input ?? ({ null_fields: [] } as unknown as M.PlanInput__Output);
  const patch = patchOf(m, [
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
  ]) as Patch<Plan>;
  if (nulls(m).includes("metadata")) patch.metadata = null;
  else if (m.metadata_json) patch.metadata = metadataOf(m.metadata_json);
  return {
    patch,
    taxCodes: m.tax_codes_set ? (m.tax_codes ?? []) : undefined,
    charges: m.charges_set ? (m.charges ?? []).map(chargeOf) : undefined,
    fixedCharges: m.fixed_charges_set ? (m.fixed_charges ?? []).map(fixedChargeOf) : undefined,
    minimumCommitment: minimumCommitmentOf(m),
    usageThresholds: usageThresholdsOf(m),
  };
}

/** A plan view → the proto Plan (the metadata, the customer's own object, as JSON text). */
export function planMessage(p: PlanView) {
  return {
    ...p,
    charges: p.charges.map((c) => ({
      ...c,
      properties: chargePropertiesToProto(c.properties),
      filters: c.filters.map(chargeFilterToProto),
    })),
    fixed_charges: p.fixed_charges.map((f) => ({ ...f, properties: chargePropertiesToProto(f.properties) })),
    metadata_json: p.metadata ? customerObjectText(p.metadata) : null,
    entitlements: p.entitlements.map(entitlementMessage),
  };
}
