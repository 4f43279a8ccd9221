import { Rpc, type CatalogMessages, type CatalogRpc, type CommonMessages } from "@billing/contracts";
import { AppError } from "@billing/errors";
import { RpcClient } from "@billing/grpc";
import type { InvoiceCustomSectionRef, TaxRef } from "../domain/catalog-refs";

/** Records named by code or by id. */
export interface CatalogKeys {
  codes?: string[];
  ids?: string[];
}

/** The catalog service as the customer service sees it: one batched call per question. */
export interface Catalog {
  /** The organization's live taxes of these codes or ids; unknown ones are left out. */
  resolveTaxes(organizationId: string, keys: CatalogKeys, requestId?: string): Promise<TaxRef[]>;
  /** The organization's live invoice custom sections of these codes or ids; unknown ones are left out. */
  resolveInvoiceCustomSections(
    organizationId: string,
    keys: CatalogKeys,
    requestId?: string,
  ): Promise<InvoiceCustomSectionRef[]>;
  /** The live sections applied to the organization. */
  organizationInvoiceCustomSections(organizationId: string, requestId?: string): Promise<InvoiceCustomSectionRef[]>;
}

const orNull = (v: string | null | undefined) => v ?? null;

// Fields picked one by one: the proto loader adds `_field` entries for optional fields.
const taxRef = (t: CommonMessages.Tax__Output): TaxRef => ({
  svc_id: t.svc_id,
  name: t.name,
  code: t.code,
  description: orNull(t.description),
  rate: t.rate,
  applied_to_organization: t.applied_to_organization,
  created_at: t.created_at,
  updated_at: t.updated_at,
});
const sectionRef = (s: CatalogMessages.InvoiceCustomSection__Output): InvoiceCustomSectionRef => ({
  svc_id: s.svc_id,
  name: s.name,
  code: s.code,
  description: orNull(s.description),
  details: orNull(s.details),
  display_name: orNull(s.display_name),
  applied_to_organization: s.applied_to_organization,
  organization_id: s.organization_id,
  created_at: s.created_at,
  updated_at: s.updated_at,
});

/** A catalog that cannot answer (down, or too slow) makes the customer service answer 503, not 500 or 504. */
function unavailable(err: unknown): never {
  if (err instanceof AppError && (err.kind === "unavailable" || err.kind === "timeout")) {
    throw new AppError("unavailable", undefined, undefined, `catalog service unavailable: ${err.message}`);
  }
  throw err;
}

/** The catalog over its gRPC API (taxes and invoice custom sections), every call with a deadline. */
export function grpcCatalog(address: string, deadlineMs = 3000): Catalog & { close(): void } {
  const taxes = new RpcClient<CatalogRpc["taxes"]>(Rpc.catalog.taxes, address, deadlineMs);
  const sections = new RpcClient<CatalogRpc["invoiceCustomSections"]>(
    Rpc.catalog.invoiceCustomSections,
    address,
    deadlineMs,
  );
  return {
    async resolveTaxes(organizationId, keys, requestId) {
      const request = { organization_id: organizationId, codes: keys.codes ?? [], ids: keys.ids ?? [] };
      const res = await taxes.call("ResolveTaxes", request, { requestId }).catch(unavailable);
      return res.taxes.map(taxRef);
    },
    async resolveInvoiceCustomSections(organizationId, keys, requestId) {
      const request = { organization_id: organizationId, codes: keys.codes ?? [], ids: keys.ids ?? [] };
      const res = await sections.call("ResolveInvoiceCustomSections", request, { requestId }).catch(unavailable);
      return res.invoice_custom_sections.map(sectionRef);
    },
    async organizationInvoiceCustomSections(organizationId, requestId) {
      const res = await sections
        .call("ListAppliedInvoiceCustomSections", { organization_id: organizationId }, { requestId })
        .catch(unavailable);
      return res.invoice_custom_sections.map(sectionRef);
    },
    close() {
      taxes.close();
      sections.close();
    },
  };
}
