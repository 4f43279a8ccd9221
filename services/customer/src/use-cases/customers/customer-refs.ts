import type { CustomerRefs, InvoiceCustomSectionRef, TaxRef } from "../../domain/catalog-refs";
import { applicableSections, mayUseOrganizationSections } from "../../domain/invoice-custom-section-rules";
import type { Customer } from "../../domain/types";
import type { CustomerDeps } from "../deps";

/** Catalog records already in hand (an upsert has just resolved the codes it was sent). */
export interface KnownRefs {
  taxes?: TaxRef[];
  sections?: InvoiceCustomSectionRef[];
}

const byId = <T extends { svc_id: string }>(items: T[] = []) => new Map(items.map((i) => [i.svc_id, i]));
const unique = (ids: string[]) => [...new Set(ids)];

/**
 * Each customer's live taxes and applicable invoice custom sections, read from the catalog
 * with at most one call of each kind for all the customers (a page costs what one customer does).
 * A catalog that cannot answer fails the read with 503.
 */
export async function customerRefs(
  deps: CustomerDeps,
  organizationId: string,
  customers: Customer[],
  requestId?: string,
  known: KnownRefs = {},
): Promise<CustomerRefs[]> {
  if (customers.length === 0) return [];
  const defaultBillingEntityId = (await deps.organizations.defaultBillingEntity(organizationId))?.id ?? null;
  const taxes = byId(known.taxes);
  const sections = byId(known.sections);
  const taxIds = unique(customers.flatMap((c) => c.tax_ids)).filter((id) => !taxes.has(id));
  const sectionIds = unique(
    customers.filter((c) => !c.skip_invoice_custom_sections).flatMap((c) => c.invoice_custom_section_ids),
  ).filter((id) => !sections.has(id));
  const needOrganization = customers.some((c) => mayUseOrganizationSections(c, defaultBillingEntityId));

  const [foundTaxes, foundSections, organizationSections] = await Promise.all([
    taxIds.length ? deps.catalog.resolveTaxes(organizationId, { ids: taxIds }, requestId) : [],
    sectionIds.length ? deps.catalog.resolveInvoiceCustomSections(organizationId, { ids: sectionIds }, requestId) : [],
    needOrganization ? deps.catalog.organizationInvoiceCustomSections(organizationId, requestId) : [],
  ]);
  for (const t of foundTaxes) taxes.set(t.svc_id, t);
  for (const s of foundSections) sections.set(s.svc_id, s);

  return customers.map((c) => ({
    taxes: c.tax_ids.flatMap((id) => taxes.get(id) ?? []),
    applicable_invoice_custom_sections: applicableSections(c, sections, {
      sections: organizationSections,
      defaultBillingEntityId,
    }),
  }));
}

export interface CustomerWithRefs {
  customer: Customer;
  refs: CustomerRefs;
}

/** One customer with its references. */
export async function withRefs(
  deps: CustomerDeps,
  customer: Customer,
  requestId?: string,
  known?: KnownRefs,
): Promise<CustomerWithRefs> {
  const [refs] = await customerRefs(deps, customer.organization_id, [customer], requestId, known);
  return { customer, refs: refs! };
}
