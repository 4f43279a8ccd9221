import type { CatalogMessages as M } from "@billing/contracts";
import { ADD_ON_PATCHABLE } from "../domain/add-on-rules";
import { addOnView } from "../domain/views";
import type { AddOnChange } from "../use-cases/add-ons/add-on-change";
import type { AddOnWithTaxes } from "../use-cases/taxes/tax-refs";
import { patchOf } from "./patch-messages";

/** Proto ⇄ domain for add-ons. */

/** The proto AddOnInput → the use cases' AddOnChange (tax codes only when sent). */
export function addOnChangeOf(m: M.AddOnInput__Output | null): AddOnChange {
  return { patch: patchOf(m, ADD_ON_PATCHABLE), taxCodes: m?.tax_codes_set ? (m.tax_codes ?? []) : undefined };
}

/** An add-on with its live taxes → the proto AddOn. */
export const addOnMessage = ({ addOn, taxes }: AddOnWithTaxes) => addOnView(addOn, taxes);
