import type { CatalogMessages as M } from "@billing/contracts";
import {
  INVOICE_CUSTOM_SECTION_PATCHABLE,
  invoiceCustomSectionView,
  type InvoiceCustomSection,
} from "../domain/invoice-custom-section";
import type { Patch } from "../domain/patch";
import { patchOf } from "./patch-messages";

/** Proto ⇄ domain for invoice custom sections. */

/** The proto InvoiceCustomSectionInput → the fields sent, as a patch. */
export const sectionPatchOf = (m: M.InvoiceCustomSectionInput__Output | null): Patch<InvoiceCustomSection> =>
  patchOf(m, INVOICE_CUSTOM_SECTION_PATCHABLE);

/** One section → the reply carrying it. */
export const oneSection = (section: InvoiceCustomSection) => ({
  invoice_custom_section: invoiceCustomSectionView(section),
});

/** Several sections → the reply carrying them. */
export const manySections = (sections: InvoiceCustomSection[]) => ({
  invoice_custom_sections: sections.map(invoiceCustomSectionView),
});
