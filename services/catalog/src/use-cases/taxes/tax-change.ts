import { normalizedDecimal } from "../../domain/decimal";
import { applyPatch, type Patch } from "../../domain/patch";
import { TAX_PATCHABLE, taxViolations } from "../../domain/tax-rules";
import type { Tax } from "../../domain/types";
import { refuseIfInvalid } from "../catalog-record-writes";

/** A tax with the fields sent applied, validated (rate normalized), or 422 with every problem at once. Nothing is stored. */
export function changedTax(base: Tax, patch: Patch<Tax>): Tax {
  const tax = applyPatch(base, patch, TAX_PATCHABLE);
  refuseIfInvalid(taxViolations(tax));
  // a null sent for the flag means Lago's default, false (the record and its events hold a boolean)
  return { ...tax, rate: normalizedDecimal(tax.rate)!, applied_to_organization: tax.applied_to_organization === true };
}
