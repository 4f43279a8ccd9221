import { withNullFields } from "../../http/null-fields";
import type { CouponInput } from "./validators";

/**
 * The proto CouponInput. `applies_to: null` clears both limitations; inside it,
 * `*_set` tells a sent list (null or [] clears) from an absent one.
 */
export function toCouponInputMessage(input: CouponInput) {
  const appliesTo = input.applies_to;
  return {
    ...withNullFields(input, ["applies_to"]),
    applies_to:
      appliesTo === undefined
        ? null
        : {
            plan_codes_set: appliesTo === null || appliesTo.plan_codes !== undefined,
            plan_codes: appliesTo?.plan_codes ?? [],
            billable_metric_codes_set: appliesTo === null || appliesTo.billable_metric_codes !== undefined,
            billable_metric_codes: appliesTo?.billable_metric_codes ?? [],
          },
  };
}
