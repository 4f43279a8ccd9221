import { randomUUID } from "node:crypto";
import type { Patch } from "../../domain/patch";
import type { Tax } from "../../domain/types";
import type { CatalogDeps } from "../deps";
import { insertRecord } from "../catalog-record-writes";
import { changedTax } from "./tax-change";

/** POST /taxes. */
export async function createTax(deps: CatalogDeps, organizationId: string, patch: Patch<Tax>): Promise<Tax> {
  const now = deps.clock.now();
  const blank: Tax = {
    id: randomUUID(),
    organization_id: organizationId,
    code: "",
    name: "",
    description: null,
    rate: "",
    applied_to_organization: false,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
  const tax = changedTax(blank, patch);
  await insertRecord(deps.taxes, tax);
  return tax;
}
