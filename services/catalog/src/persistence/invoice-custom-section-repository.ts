import type { DocModel } from "@billing/mongo";
import type { InvoiceCustomSection } from "../domain/invoice-custom-section";
import { CatalogRepository } from "./catalog-repository";
import type { InvoiceCustomSectionDoc } from "./models";

/** The invoice_custom_sections collection: the catalog's usual reads and writes, plus the organization's applied sections. */
export class InvoiceCustomSectionRepository extends CatalogRepository<InvoiceCustomSection> {
  constructor(private readonly sections: DocModel<InvoiceCustomSectionDoc>) {
    super(sections);
  }

  /** The live sections applied to the organization (at most a handful per organization). */
  async listApplied(organizationId: string): Promise<InvoiceCustomSection[]> {
    const docs = await this.sections
      .find({ organization_id: organizationId, deleted_at: null, applied_to_organization: true }, { outbox: 0 })
      .lean<InvoiceCustomSectionDoc[]>();
    return docs.map((doc) => CatalogRepository.toDomain<InvoiceCustomSection>(doc));
  }
}
