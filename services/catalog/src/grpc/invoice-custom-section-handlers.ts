import type { CatalogRpc } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import { pageMeta, pageRequestOf } from "@billing/mongo";
import { INVOICE_CUSTOM_SECTION_PATCHABLE, invoiceCustomSectionView, type InvoiceCustomSection } from "../domain/invoice-custom-section";
import type { Patch } from "../domain/patch";
import type { CatalogDeps } from "../use-cases/deps";
import { createInvoiceCustomSection } from "../use-cases/invoice-custom-sections/create-invoice-custom-section";
import { deleteInvoiceCustomSection } from "../use-cases/invoice-custom-sections/delete-invoice-custom-section";
import { getInvoiceCustomSection } from "../use-cases/invoice-custom-sections/get-invoice-custom-section";
import { listInvoiceCustomSections } from "../use-cases/invoice-custom-sections/list-invoice-custom-sections";
import {
  listAppliedInvoiceCustomSections, resolveInvoiceCustomSections,
} from "../use-cases/invoice-custom-sections/resolve-invoice-custom-sections";
import { updateInvoiceCustomSection } from "../use-cases/invoice-custom-sections/update-invoice-custom-section";
import { patchOf } from "./patch-messages";

type Key = { organization_id: string; code: string };
type Input = { invoice_custom_section: Record<string, unknown> | null };
const patch = (input: object | null) => patchOf(input, INVOICE_CUSTOM_SECTION_PATCHABLE) as Patch<InvoiceCustomSection>;
const one = (section: InvoiceCustomSection) => ({ invoice_custom_section: invoiceCustomSectionView(section) });
const many = (sections: InvoiceCustomSection[]) => ({ invoice_custom_sections: sections.map(invoiceCustomSectionView) });

/** billing.catalog.v1.InvoiceCustomSectionService: proto in, use case, proto out. */
export function invoiceCustomSectionHandlers(deps: CatalogDeps): Handlers<CatalogRpc["invoiceCustomSections"]> {
  return {
    CreateInvoiceCustomSection: async (req) =>
      one(await createInvoiceCustomSection(deps, req.organization_id, patch(req.invoice_custom_section))),
    GetInvoiceCustomSection: async (req) => one(await getInvoiceCustomSection(deps, req.organization_id, req.code)),
    UpdateInvoiceCustomSection: async (req) =>
      one(await updateInvoiceCustomSection(deps, req.organization_id, req.code, patch(req.invoice_custom_section))),
    DeleteInvoiceCustomSection: async (req) => one(await deleteInvoiceCustomSection(deps, req.organization_id, req.code)),
    ListInvoiceCustomSections: async (req) => {
      const page = pageRequestOf(req);
      const { items, total } = await listInvoiceCustomSections(deps, req.organization_id, page);
      return { ...many(items), meta: pageMeta(total, page) };
    },
    ResolveInvoiceCustomSections: async (req) =>
      many(await resolveInvoiceCustomSections(deps, req.organization_id, { codes: req.codes, ids: req.ids })),
    ListAppliedInvoiceCustomSections: async (req) =>
      many(await listAppliedInvoiceCustomSections(deps, req.organization_id)),
  };
}
