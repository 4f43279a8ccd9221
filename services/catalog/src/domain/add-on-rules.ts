import { isCurrencyCode } from "@billing/codes";
import { Violations } from "./patch";
import type { AddOn } from "./types";

export const ADD_ON_PATCHABLE = [
  "name",
  "code",
  "invoice_display_name",
  "description",
  "amount_cents",
  "amount_currency",
] as const;

/** The invariants of every stored add-on. Returns Lago's error_details, or null. */
export function addOnViolations(addOn: AddOn): Record<string, string[]> | null {
  const v = new Violations();
  v.mandatory("name", addOn.name);
  v.mandatory("code", addOn.code);
  if (v.mandatory("amount_cents", addOn.amount_cents)) {
    if (!Number.isSafeInteger(addOn.amount_cents)) v.add("amount_cents", "value_is_invalid");
    else if (addOn.amount_cents < 0) v.add("amount_cents", "value_is_out_of_range");
  }
  if (v.mandatory("amount_currency", addOn.amount_currency) && !isCurrencyCode(addOn.amount_currency))
    v.add("amount_currency", "value_is_invalid");
  return v.result();
}
