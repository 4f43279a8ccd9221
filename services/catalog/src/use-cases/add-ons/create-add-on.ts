import { randomUUID } from "node:crypto";
import { addOnViolations, ADD_ON_PATCHABLE } from "../../domain/add-on-rules";
import { applyPatch, type Patch } from "../../domain/patch";
import type { AddOn } from "../../domain/types";
import type { CatalogDeps } from "../deps";
import { insertRecord, refuseIfInvalid } from "../catalog-record-writes";
import { taxIdsOf, withTaxes, type AddOnWithTaxes } from "../taxes/tax-refs";

export interface AddOnChange {
  patch: Patch<AddOn>;
  /** Codes of the taxes to apply, when sent (replacing the current ones). */
  taxCodes?: string[];
}

/** Applies a change to an add-on: field errors (422) first, then unknown taxes (404). */
export async function changedAddOn(deps: CatalogDeps, base: AddOn, change: AddOnChange): Promise<AddOn> {
  const next = applyPatch(base, change.patch, ADD_ON_PATCHABLE);
  refuseIfInvalid(addOnViolations(next));
  if (change.taxCodes !== undefined) next.tax_ids = await taxIdsOf(deps, base.organization_id, change.taxCodes);
  return next;
}

/** POST /add_ons. */
export async function createAddOn(deps: CatalogDeps, organizationId: string, change: AddOnChange): Promise<AddOnWithTaxes> {
  const now = deps.clock.now();
  const blank: AddOn = {
    id: randomUUID(), organization_id: organizationId, code: "", name: "", invoice_display_name: null, description: null,
    amount_cents: null as unknown as number, amount_currency: "", tax_ids: [], created_at: now, updated_at: now, deleted_at: null,
  };
  const addOn = await changedAddOn(deps, blank, change);
  await insertRecord(deps.addOns, addOn);
  return (await withTaxes(deps, organizationId, [addOn]))[0]!;
}
