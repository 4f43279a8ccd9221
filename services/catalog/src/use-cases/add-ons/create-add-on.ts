import { randomUUID } from "node:crypto";
import type { AddOn } from "../../domain/types";
import type { CatalogDeps } from "../deps";
import { insertRecord } from "../catalog-record-writes";
import { withTaxes, type AddOnWithTaxes } from "../taxes/tax-refs";
import { changedAddOn, type AddOnChange } from "./add-on-change";

/** POST /add_ons. */
export async function createAddOn(
  deps: CatalogDeps,
  organizationId: string,
  change: AddOnChange,
): Promise<AddOnWithTaxes> {
  const now = deps.clock.now();
  const blank: AddOn = {
    id: randomUUID(),
    organization_id: organizationId,
    code: "",
    name: "",
    invoice_display_name: null,
    description: null,
    amount_cents: null as unknown as number,
    amount_currency: "",
    tax_ids: [],
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
  const addOn = await changedAddOn(deps, blank, change);
  await insertRecord(deps.addOns, addOn);
  return (await withTaxes(deps, organizationId, [addOn]))[0]!;
}
