import type { Model } from "mongoose";
import { skipOf, type PageRequest } from "@billing/mongo";
import type { Feature } from "../domain/feature";
import { CatalogRepository } from "./catalog-repository";

type Doc = Omit<Feature, "id"> & { _id: string; live_key: string };

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The features collection: the catalog's usual reads and writes, plus a search by name, code or description. */
export class FeatureRepository extends CatalogRepository<Feature> {
  constructor(private readonly features: Model<any>) {
    super(features);
  }

  /** Live features whose name, code or description contains `term` (any case), newest first. */
  async search(organizationId: string, term: string, page: PageRequest): Promise<{ items: Feature[]; total: number }> {
    const contains = { $regex: escapeRegex(term), $options: "i" };
    const filter = { organization_id: organizationId, deleted_at: null, $or: [{ name: contains }, { code: contains }, { description: contains }] };
    const [docs, total] = await Promise.all([
      this.features.find(filter, { outbox: 0 }).sort({ created_at: -1, _id: -1 }).skip(skipOf(page)).limit(page.perPage).lean<Doc[]>(),
      this.features.countDocuments(filter),
    ]);
    return { items: docs.map(({ _id, live_key: _key, ...rest }) => ({ ...rest, id: _id })), total };
  }
}
