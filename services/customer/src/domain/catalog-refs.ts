/** The catalog records a customer names, as the catalog service describes them (its public views). */

/** A tax (billing.common.v1.Tax): rate is a decimal string (percent). */
export interface TaxRef {
  svc_id: string;
  name: string;
  code: string;
  description: string | null;
  rate: string;
  applied_to_organization: boolean;
  created_at: string;
  updated_at: string;
}

/** An invoice custom section (billing.catalog.v1.InvoiceCustomSection). */
export interface InvoiceCustomSectionRef {
  svc_id: string;
  name: string;
  code: string;
  description: string | null;
  details: string | null;
  display_name: string | null;
  applied_to_organization: boolean;
  organization_id: string;
  created_at: string;
  updated_at: string;
}

/** What a customer's view shows of the catalog, resolved when read. */
export interface CustomerRefs {
  taxes: TaxRef[];
  applicable_invoice_custom_sections: InvoiceCustomSectionRef[];
}

export const NO_REFS: CustomerRefs = { taxes: [], applicable_invoice_custom_sections: [] };
