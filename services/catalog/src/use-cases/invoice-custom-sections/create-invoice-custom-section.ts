import { randomUUID } from "node:crypto";
import type { InvoiceCustomSection } from "../../domain/invoice-custom-section";
import type { Patch } from "../../domain/patch";
import type { CatalogDeps } from "../deps";
import { insertRecord } from "../catalog-record-writes";
import { changedSection } from "./invoice-custom-section-change";

/** POST /invoice_custom_sections. */
export async function createInvoiceCustomSection(
  deps: CatalogDeps,
  organizationId: string,
  patch: Patch<InvoiceCustomSection>,
): Promise<InvoiceCustomSection> {
  const now = deps.clock.now();
  const blank: InvoiceCustomSection = {
    id: randomUUID(),
    organization_id: organizationId,
    code: "",
    name: "",
    description: null,
    details: null,
    display_name: null,
    applied_to_organization: false,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
  const section = changedSection(blank, patch);
  await insertRecord(deps.invoiceCustomSections, section);
  return section;
}
