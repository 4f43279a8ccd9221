import { parseDecimal } from "@billing/pricing";
import { Violations } from "./patch";
import type { Tax } from "./types";

export const TAX_PATCHABLE = ["name", "code", "rate", "description", "applied_to_organization"] as const;

/** The invariants of every stored tax. Returns Lago's error_details, or null. */
export function taxViolations(tax: Tax): Record<string, string[]> | null {
  const v = new Violations();
  v.mandatory("name", tax.name);
  v.mandatory("code", tax.code);
  if (v.mandatory("rate", tax.rate)) {
    const rate = parseDecimal(tax.rate);
    if (!rate) v.add("rate", "value_is_invalid");
    else if (rate.isNegative()) v.add("rate", "value_is_out_of_range");
  }
  return v.result();
}
