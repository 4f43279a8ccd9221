import type { AddOn, Tax } from "../../domain/types";
import type { CatalogDeps } from "../deps";
import { liveIdsOf } from "../catalog-record-refs";

export interface AddOnWithTaxes {
  addOn: AddOn;
  taxes: Tax[];
}

/** The ids of the organization's live taxes of these codes, in the order given; an unknown code → 404 tax_not_found. */
export function taxIdsOf(deps: CatalogDeps, organizationId: string, codes: string[]): Promise<string[]> {
  return liveIdsOf(deps.taxes, organizationId, codes, "tax");
}

/** Each add-on with its live taxes (a deleted tax no longer applies), one query for all of them. */
export async function withTaxes(deps: CatalogDeps, organizationId: string, addOns: AddOn[]): Promise<AddOnWithTaxes[]> {
  const taxes = await deps.taxes.findLiveByIds(organizationId, [...new Set(addOns.flatMap((a) => a.tax_ids))]);
  const byId = new Map(taxes.map((t) => [t.id, t]));
  return addOns.map((addOn) => ({ addOn, taxes: addOn.tax_ids.flatMap((id) => byId.get(id) ?? []) }));
}
