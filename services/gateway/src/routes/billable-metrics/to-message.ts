import { withNullFields } from "../../http/null-fields";
import type { BillableMetricInput } from "./validators";

/** The proto BillableMetricInput: `filters_set` tells a sent list (null or [] clears) from an absent one. */
export function toBillableMetricInputMessage(input: BillableMetricInput) {
  return {
    ...withNullFields(input, ["filters"]),
    filters_set: input.filters !== undefined,
    filters: input.filters ?? [],
  };
}
