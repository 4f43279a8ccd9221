import { AppError } from "@billing/errors";
import type { InvoiceCustomSectionRef, TaxRef } from "../../domain/catalog-refs";
import type { CustomerPatch } from "../../domain/customer-patch";
import { applySectionChoice } from "../../domain/invoice-custom-section-rules";
import type { Customer } from "../../domain/types";
import type { CustomerDeps } from "../deps";

/** The catalog records an upsert names, resolved: absent when the request did not name any. */
export interface CatalogChoices {
  taxes?: TaxRef[];
  sections?: InvoiceCustomSectionRef[];
}

/**
 * Resolves the tax and section codes an upsert sent, in one catalog call each. Every tax code
 * must name a live tax of the organization, else 404 tax_not_found (as Lago); unknown section
 * codes are ignored (as Lago).
 */
export async function resolveCatalogChoices(
  deps: CustomerDeps,
  organizationId: string,
  patch: CustomerPatch,
  requestId?: string,
): Promise<CatalogChoices> {
  const taxCodes = patch.tax_codes ? [...new Set(patch.tax_codes)] : undefined;
  const sectionCodes = patch.invoice_custom_section_codes;
  const [taxes, sections] = await Promise.all([
    taxCodes?.length ? deps.catalog.resolveTaxes(organizationId, { codes: taxCodes }, requestId) : taxCodes && [],
    sectionCodes?.length
      ? deps.catalog.resolveInvoiceCustomSections(organizationId, { codes: sectionCodes }, requestId)
      : sectionCodes && [],
  ]);
  if (!taxCodes || !taxes) return { sections };
  const byCode = new Map(taxes.map((t) => [t.code, t]));
  return {
    taxes: taxCodes.map((code) => {
      const tax = byCode.get(code);
      if (!tax) throw AppError.notFound("tax");
      return tax;
    }),
    sections,
  };
}

/** The customer with the choices applied: sent taxes replace its taxes; sections follow Lago's choice rule. */
export function applyCatalogChoices(c: Customer, patch: CustomerPatch, choices: CatalogChoices): Customer {
  const next = applySectionChoice(c, patch, choices.sections);
  if (choices.taxes) next.tax_ids = choices.taxes.map((t) => t.svc_id);
  return next;
}
