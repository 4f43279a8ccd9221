import { skipOf, type DocModel, type Filter, type PageRequest } from "@billing/mongo";
import type { Feature } from "../domain/feature";
import { CatalogRepository } from "./catalog-repository";
import type { FeatureDoc } from "./models";

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The features collection: the catalog's usual reads and writes, plus a search by name, code or description. */
export class FeatureRepository extends CatalogRepository<Feature> {
  constructor(private readonly features: DocModel<FeatureDoc>) {
    super(features);
  }

  /** Live features whose name, code or description contains `term` (any case), newest first. */
  async search(organizationId: string, term: string, page: PageRequest): Promise<{ items: Feature[]; total: number }> {
    const contains = { $regex: escapeRegex(term), $options: "i" };
    const filter: Filter<FeatureDoc> = {
      organization_id: organizationId,
      deleted_at: null,
      $or: [{ name: contains }, { code: contains }, { description: contains }],
    };
    const [docs, total] = await Promise.all([
      this.features
        .find(filter, { outbox: 0 })
        .sort({ created_at: -1, _id: -1 })
        .skip(skipOf(page))
        .limit(page.perPage)
        .lean<FeatureDoc[]>(),
      this.features.countDocuments(filter),
    ]);
    return { items: docs.map((doc) => CatalogRepository.toDomain<Feature>(doc)), total };
  }
}
