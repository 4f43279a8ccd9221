import { withNullFields } from "../../http/null-fields";
import type { PlanInput } from "./validators";

type Charge = NonNullable<PlanInput["charges"]>[number];
type FixedCharge = NonNullable<PlanInput["fixed_charges"]>[number];

const json = (value: unknown) => (value === undefined || value === null ? undefined : JSON.stringify(value));

function chargeMessage(c: Charge) {
  return {
    ...withNullFields(c, ["properties", "filters", "tax_codes"]),
    properties_json: json(c.properties),
    filters_set: c.filters !== undefined,
    filters: (c.filters ?? []).map((f) => ({
      invoice_display_name: f.invoice_display_name ?? undefined, properties_json: json(f.properties), values_json: JSON.stringify(f.values),
    })),
    tax_codes_set: c.tax_codes !== undefined,
    tax_codes: c.tax_codes ?? [],
  };
}

function fixedChargeMessage(c: FixedCharge) {
  return {
    ...withNullFields(c, ["properties", "tax_codes"]),
    properties_json: json(c.properties),
    tax_codes_set: c.tax_codes !== undefined,
    tax_codes: c.tax_codes ?? [],
  };
}

/** The proto PlanInput: each `*_set` tells a sent list (null or [] clears) from an absent one; free-form objects go as JSON. */
export function toPlanInputMessage(input: PlanInput) {
  const mc = input.minimum_commitment;
  return {
    ...withNullFields(input, ["tax_codes", "usage_thresholds", "charges", "fixed_charges", "metadata", "minimum_commitment"]),
    tax_codes_set: input.tax_codes !== undefined,
    tax_codes: input.tax_codes ?? [],
    minimum_commitment: mc ? { amount_cents: mc.amount_cents, invoice_display_name: mc.invoice_display_name ?? undefined, tax_codes: mc.tax_codes ?? [] } : undefined,
    usage_thresholds_set: input.usage_thresholds !== undefined,
    usage_thresholds: (input.usage_thresholds ?? []).map((t) => ({
      threshold_display_name: t.threshold_display_name ?? undefined, amount_cents: t.amount_cents, recurring: t.recurring ?? undefined,
    })),
    charges_set: input.charges !== undefined,
    charges: (input.charges ?? []).map(chargeMessage),
    fixed_charges_set: input.fixed_charges !== undefined,
    fixed_charges: (input.fixed_charges ?? []).map(fixedChargeMessage),
    metadata_json: json(input.metadata),
    null_fields: [
      ...(input.minimum_commitment === null ? ["minimum_commitment"] : []),
      ...(input.metadata === null ? ["metadata"] : []),
      ...withNullFields(input, ["tax_codes", "usage_thresholds", "charges", "fixed_charges", "metadata", "minimum_commitment"]).null_fields,
    ],
  };
}
