import type { CatalogRpc } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import { pageMeta, pageRequestOf } from "@billing/mongo";
import type { CatalogDeps } from "../use-cases/deps";
import { createInvoiceCustomSection } from "../use-cases/invoice-custom-sections/create-invoice-custom-section";
import { deleteInvoiceCustomSection } from "../use-cases/invoice-custom-sections/delete-invoice-custom-section";
import { getInvoiceCustomSection } from "../use-cases/invoice-custom-sections/get-invoice-custom-section";
import { listAppliedInvoiceCustomSections } from "../use-cases/invoice-custom-sections/list-applied-invoice-custom-sections";
import { listInvoiceCustomSections } from "../use-cases/invoice-custom-sections/list-invoice-custom-sections";
import { resolveInvoiceCustomSections } from "../use-cases/invoice-custom-sections/resolve-invoice-custom-sections";
import { updateInvoiceCustomSection } from "../use-cases/invoice-custom-sections/update-invoice-custom-section";
import { manySections, oneSection, sectionPatchOf } from "./invoice-custom-section-messages";

/** billing.catalog.v1.InvoiceCustomSectionService: proto in, use case, proto out. */
export function invoiceCustomSectionHandlers(deps: CatalogDeps): Handlers<CatalogRpc["invoiceCustomSections"]> {
  return {
    CreateInvoiceCustomSection: async (req) =>
      oneSection(
        await createInvoiceCustomSection(deps, req.organization_id, sectionPatchOf(req.invoice_custom_section)),
      ),
    GetInvoiceCustomSection: async (req) =>
      oneSection(await getInvoiceCustomSection(deps, req.organization_id, req.code)),
    UpdateInvoiceCustomSection: async (req) =>
      oneSection(
        await updateInvoiceCustomSection(
          deps,
          req.organization_id,
          req.code,
          sectionPatchOf(req.invoice_custom_section),
        ),
      ),
    DeleteInvoiceCustomSection: async (req) =>
      oneSection(await deleteInvoiceCustomSection(deps, req.organization_id, req.code)),
    ListInvoiceCustomSections: async (req) => {
      const page = pageRequestOf(req);
      const { items, total } = await listInvoiceCustomSections(deps, req.organization_id, page);
      return { ...manySections(items), meta: pageMeta(total, page) };
    },
    ResolveInvoiceCustomSections: async (req) =>
      manySections(await resolveInvoiceCustomSections(deps, req.organization_id, { codes: req.codes, ids: req.ids })),
    ListAppliedInvoiceCustomSections: async (req) =>
      manySections(await listAppliedInvoiceCustomSections(deps, req.organization_id)),
  };
}
