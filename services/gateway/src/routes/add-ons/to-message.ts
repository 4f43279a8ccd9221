import { withNullFields } from "../../http/null-fields";
import type { AddOnInput } from "./validators";

/** The proto AddOnInput: `tax_codes_set` tells a sent list (null or [] clears) from an absent one. */
export function toAddOnInputMessage(input: AddOnInput) {
  return {
    ...withNullFields(input, ["tax_codes"]),
    tax_codes_set: input.tax_codes !== undefined,
    tax_codes: input.tax_codes ?? [],
  };
}
