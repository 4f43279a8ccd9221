import type { Model } from "mongoose";
import { isDuplicateKeyError } from "@billing/mongo";
import type { CopyDocument } from "./copy-models";

export interface Versioned<T> {
  value: T;
  version: number;
}

/** Stores versioned copies by id; an older or equal version never replaces a stored one. */
export class CopyRepository<T> {
  constructor(private readonly model: Model<CopyDocument>) {}

  /**
   * One conditional upsert: it matches only an older version; when a newer (or the same) one is
   * stored, the upsert collides on `_id` and the write is dropped as stale.
   */
  async put(id: string, organizationId: string, copy: Versioned<T>): Promise<"stored" | "stale"> {
    try {
      await this.model.updateOne(
        { _id: id, version: { $lt: copy.version } },
        { $set: { organization_id: organizationId, version: copy.version, view_json: JSON.stringify(copy.value) } },
        { upsert: true },
      );
      return "stored";
    } catch (err) {
      if (isDuplicateKeyError(err)) return "stale";
      throw err;
    }
  }

  /** Every stored copy (start-up load). */
  async all(): Promise<Versioned<T>[]> {
    const docs = await this.model.find({}).lean<CopyDocument[]>();
    return docs.map((d) => ({ value: JSON.parse(d.view_json) as T, version: d.version }));
  }
}
