import { AppError } from "@billing/errors";
import { loadService, RpcClient } from "@billing/grpc";
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
  resolveInvoiceCustomSections(organizationId: string, keys: CatalogKeys, requestId?: string): Promise<InvoiceCustomSectionRef[]>;
  /** The live sections applied to the organization. */
  organizationInvoiceCustomSections(organizationId: string, requestId?: string): Promise<InvoiceCustomSectionRef[]>;
}

const PROTO = "billing/catalog/v1";
const orNull = (v: string | null | undefined) => v ?? null;

// Fields picked one by one: the proto loader adds `_field` entries for optional fields.
const taxRef = (t: TaxRef): TaxRef => ({
  svc_id: t.svc_id, name: t.name, code: t.code, description: orNull(t.description), rate: t.rate,
  applied_to_organization: t.applied_to_organization, created_at: t.created_at, updated_at: t.updated_at,
});
const sectionRef = (s: InvoiceCustomSectionRef): InvoiceCustomSectionRef => ({
  svc_id: s.svc_id, name: s.name, code: s.code, description: orNull(s.description), details: orNull(s.details),
  display_name: orNull(s.display_name), applied_to_organization: s.applied_to_organization, organization_id: s.organization_id,
  created_at: s.created_at, updated_at: s.updated_at,
});

/** A catalog that cannot answer (down, or too slow) makes the customer service answer 503, not 500 or 504. */
function unavailable(err: unknown): never {
  if (err instanceof AppError && (err.kind === "unavailable" || err.kind === "timeout")) {
    throw new AppError("unavailable", undefined, undefined, `catalog service unavailable: ${err.message}`);
  }
  throw err;
}

/** The catalog over its gRPC API (taxes.proto and invoice_custom_sections.proto), every call with a deadline. */
export function grpcCatalog(address: string, deadlineMs = 3000): Catalog & { close(): void } {
  const taxes = new RpcClient(loadService(`${PROTO}/taxes.proto`, "billing.catalog.v1.TaxService"), address, deadlineMs);
  const sections = new RpcClient(
    loadService(`${PROTO}/invoice_custom_sections.proto`, "billing.catalog.v1.InvoiceCustomSectionService"),
    address,
    deadlineMs,
  );
  type Sections = { invoice_custom_sections: InvoiceCustomSectionRef[] };
  return {
    async resolveTaxes(organizationId, keys, requestId) {
      const request = { organization_id: organizationId, codes: keys.codes ?? [], ids: keys.ids ?? [] };
      const res = await taxes.call<{ taxes: TaxRef[] }>("ResolveTaxes", request, { requestId }).catch(unavailable);
      return res.taxes.map(taxRef);
    },
    async resolveInvoiceCustomSections(organizationId, keys, requestId) {
      const request = { organization_id: organizationId, codes: keys.codes ?? [], ids: keys.ids ?? [] };
      const res = await sections.call<Sections>("ResolveInvoiceCustomSections", request, { requestId }).catch(unavailable);
      return res.invoice_custom_sections.map(sectionRef);
    },
    async organizationInvoiceCustomSections(organizationId, requestId) {
      const request = { organization_id: organizationId };
      const res = await sections.call<Sections>("ListAppliedInvoiceCustomSections", request, { requestId }).catch(unavailable);
      return res.invoice_custom_sections.map(sectionRef);
    },
    close() {
      taxes.close();
      sections.close();
    },
  };
}
