import { chargeFilterToProto, chargePropertiesToProto, customerObjectText } from "@billing/contracts";
import { withNullFields } from "../../http/null-fields";
import type { PlanInput } from "./validators";

type Charge = NonNullable<PlanInput["charges"]>[number];
type FixedCharge = NonNullable<PlanInput["fixed_charges"]>[number];

/** Charge properties as sent (absent, or sent as null: none). */
export const sentProperties = (properties: Charge["properties"]) =>
  properties ? chargePropertiesToProto(properties) : undefined;

/** A charge filter as sent (its properties absent: {}). */
export const sentFilter = (f: NonNullable<Charge["filters"]>[number]) =>
  chargeFilterToProto({ ...f, properties: f.properties ?? {} });

function chargeMessage(c: Charge) {
  return {
    ...withNullFields(c, ["properties", "filters", "tax_codes"]),
    properties: sentProperties(c.properties),
    filters_set: c.filters !== undefined,
    filters: (c.filters ?? []).map(sentFilter),
    tax_codes_set: c.tax_codes !== undefined,
    tax_codes: c.tax_codes ?? [],
  };
}

function fixedChargeMessage(c: FixedCharge) {
  return {
    ...withNullFields(c, ["properties", "tax_codes"]),
    properties: sentProperties(c.properties),
    tax_codes_set: c.tax_codes !== undefined,
    tax_codes: c.tax_codes ?? [],
  };
}

/** The proto PlanInput: each `*_set` tells a sent list (null or [] clears) from an absent one; the metadata (the customer's own object) goes as JSON. */
export function toPlanInputMessage(input: PlanInput) {
  const mc = input.minimum_commitment;
  return {
    ...withNullFields(input, [
      "tax_codes",
      "usage_thresholds",
      "charges",
      "fixed_charges",
      "metadata",
      "minimum_commitment",
    ]),
    tax_codes_set: input.tax_codes !== undefined,
    tax_codes: input.tax_codes ?? [],
    minimum_commitment: mc
      ? {
          amount_cents: mc.amount_cents,
          invoice_display_name: mc.invoice_display_name ?? undefined,
          tax_codes: mc.tax_codes ?? [],
        }
      : undefined,
    usage_thresholds_set: input.usage_thresholds !== undefined,
    usage_thresholds: (input.usage_thresholds ?? []).map((t) => ({
      threshold_display_name: t.threshold_display_name ?? undefined,
      amount_cents: t.amount_cents,
      recurring: t.recurring ?? undefined,
    })),
    charges_set: input.charges !== undefined,
    charges: (input.charges ?? []).map(chargeMessage),
    fixed_charges_set: input.fixed_charges !== undefined,
    fixed_charges: (input.fixed_charges ?? []).map(fixedChargeMessage),
    metadata_json: input.metadata ? customerObjectText(input.metadata) : undefined,
    null_fields: [
      ...(input.minimum_commitment === null ? ["minimum_commitment"] : []),
      ...(input.metadata === null ? ["metadata"] : []),
      ...withNullFields(input, [
        "tax_codes",
        "usage_thresholds",
        "charges",
        "fixed_charges",
        "metadata",
        "minimum_commitment",
      ]).null_fields,
    ],
  };
}
