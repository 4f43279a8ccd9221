import { randomUUID } from "node:crypto";
import { normalizedDecimal } from "../../domain/decimal";
import { applyPatch, type Patch } from "../../domain/patch";
import { TAX_PATCHABLE, taxViolations } from "../../domain/tax-rules";
import type { Tax } from "../../domain/types";
import type { CatalogDeps } from "../deps";
import { insertRecord, refuseIfInvalid } from "../catalog-record-writes";

/** Validates a tax (rate normalized) or throws 422 with every problem at once. */
export function checkedTax(tax: Tax): Tax {
  refuseIfInvalid(taxViolations(tax));
  return { ...tax, rate: normalizedDecimal(tax.rate)! };
}

/** POST /taxes. */
export async function createTax(deps: CatalogDeps, organizationId: string, patch: Patch<Tax>): Promise<Tax> {
  const now = deps.clock.now();
  const blank: Tax = {
    id: randomUUID(), organization_id: organizationId, code: "", name: "", description: null, rate: "",
    applied_to_organization: false, created_at: now, updated_at: now, deleted_at: null,
  };
  const tax = checkedTax(applyPatch(blank, patch, TAX_PATCHABLE));
  await insertRecord(deps.taxes, tax);
  return tax;
}
