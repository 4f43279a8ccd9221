import { withNullFields } from "../../http/null-fields";
import { sentFilter, sentProperties } from "../plans/to-message";
import { sectionChoiceMessage } from "../invoice-custom-sections/choice";
import type { PlanOverrides, SubscriptionCreate, SubscriptionUpdate } from "./validators";

const optional = <T>(value: T | null | undefined): T | undefined => (value === null ? undefined : value);

function overridesMessage(o: PlanOverrides | null | undefined) {
  if (!o) return undefined;
  const mc = o.minimum_commitment;
  return {
    ...withNullFields(o, ["tax_codes", "charges", "minimum_commitment", "usage_thresholds"]),
    tax_codes_set: o.tax_codes !== undefined,
    tax_codes: o.tax_codes ?? [],
    charges_set: o.charges !== undefined,
    charges: (o.charges ?? []).map((c) => ({
      ...withNullFields(c, ["billable_metric_id", "properties", "filters", "tax_codes"]),
      properties: sentProperties(c.properties),
      filters_set: c.filters !== undefined && c.filters !== null,
      filters: (c.filters ?? []).map(sentFilter),
      tax_codes_set: c.tax_codes !== undefined,
      tax_codes: c.tax_codes ?? [],
    })),
    minimum_commitment: mc
      ? {
          amount_cents: mc.amount_cents,
          invoice_display_name: optional(mc.invoice_display_name),
          tax_codes: mc.tax_codes ?? [],
        }
      : undefined,
    usage_thresholds_set: o.usage_thresholds !== undefined,
    usage_thresholds: (o.usage_thresholds ?? []).map((t) => ({
      threshold_display_name: optional(t.threshold_display_name),
      amount_cents: t.amount_cents,
      recurring: optional(t.recurring),
    })),
  };
}

/** The proto SubscriptionInput (absent = not sent, null_fields = sent as null). */
export function toSubscriptionInputMessage(input: Partial<SubscriptionCreate> & Partial<SubscriptionUpdate>) {
  const { plan_overrides, status: _status, invoice_custom_section, ...fields } = input;
  return {
    ...withNullFields(fields),
    plan_overrides: overridesMessage(plan_overrides),
    invoice_custom_section: sectionChoiceMessage(invoice_custom_section),
  };
}
