import { addOnViolations, ADD_ON_PATCHABLE } from "../../domain/add-on-rules";
import { applyPatch, type Patch } from "../../domain/patch";
import type { AddOn } from "../../domain/types";
import type { CatalogDeps } from "../deps";
import { refuseIfInvalid } from "../catalog-record-writes";
import { taxIdsOf } from "../taxes/tax-refs";

/** An add-on's fields as sent, and the taxes to apply. */
export interface AddOnChange {
  patch: Patch<AddOn>;
  /** Codes of the taxes to apply, when sent (replacing the current ones). */
  taxCodes?: string[];
}

/** Applies a change to an add-on: field errors (422) first, then unknown taxes (404). Nothing is stored. */
export async function changedAddOn(deps: CatalogDeps, base: AddOn, change: AddOnChange): Promise<AddOn> {
  const next = applyPatch(base, change.patch, ADD_ON_PATCHABLE);
  refuseIfInvalid(addOnViolations(next));
  if (change.taxCodes !== undefined) next.tax_ids = await taxIdsOf(deps, base.organization_id, change.taxCodes);
  return next;
}
