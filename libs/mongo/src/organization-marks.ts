import { isDuplicateKeyError } from "./connection";
import type { DocCollection } from "./typed";

/** A mark: the organization's id, and when it was first marked. */
export interface OrganizationMarkDoc {
  _id: string;
  at: Date;
}

/** The mark that the organizations of documents stored before marks existed are marked (never an organization id). */
const BACKFILLED = "marked:before-marks";

/**
 * Organizations marked by `_id` in a collection of their own, for a consumer of a busy stream to
 * skip at the cost of one keyed read the envelopes of organizations that never use a feature
 * (progressive billing, wallets): most of them. A mark is written BEFORE the document that uses
 * the feature (so whoever finds that document finds the mark), is never removed (a stale one costs
 * only the read it saves) and, once seen, is remembered by the process.
 */
export class OrganizationMarks {
  private readonly known = new Set<string>();

  constructor(private readonly collection: Pick<DocCollection<OrganizationMarkDoc>, "updateOne" | "findOne">) {}

  /** Marks the organization (idempotent, whoever marks it at the same moment); written once per process. */
  async mark(organizationId: string, at: Date): Promise<void> {
    if (this.known.has(organizationId)) return;
    await this.collection
      .updateOne({ _id: organizationId }, { $setOnInsert: { at } }, { upsert: true })
      .catch((err: unknown) => {
        if (!isDuplicateKeyError(err)) throw err;
      });
    this.known.add(organizationId);
  }

  /** Whether the organization is marked: one `_id` read, none once seen. */
  async has(organizationId: string): Promise<boolean> {
    if (this.known.has(organizationId)) return true;
    // a keyed find (countDocuments is an aggregation, which the test server does not look up by _id)
    const marked = (await this.collection.findOne({ _id: organizationId }, { projection: { _id: 1 } })) !== null;
    if (marked) this.known.add(organizationId);
    return marked;
  }

  /**
   * Marks the organizations `stored` finds (those whose documents were stored before marks
   * existed), once per database: a no-op after its first complete run.
   */
  async backfill(stored: () => Promise<readonly string[]>, at: Date): Promise<void> {
    if (await this.has(BACKFILLED)) return;
    for (const organizationId of await stored()) await this.mark(organizationId, at);
    await this.mark(BACKFILLED, at);
  }
}
