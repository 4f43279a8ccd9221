import type { Envelope } from "@billing/bus";
import { embeddedOutboxStore, skipOf, type DocModel, type Filter, type PageRequest } from "@billing/mongo";
import type { CatalogRecord } from "../domain/types";
import type { CatalogDoc, CatalogDocBase } from "./models";
import { insertWithEvent, replaceWithEvent } from "./outbox-writes";

const NO_OUTBOX = { outbox: 0 } as const;

/** What a write can run into besides success. */
export type WriteOutcome = "ok" | "duplicate_code" | "lost_race";

/**
 * One catalog collection (taxes, billable metrics, add-ons or coupons): every query is scoped
 * to an organization, reads see live records only, and a write carries its event (if any)
 * in the same document update.
 */
export class CatalogRepository<T extends CatalogRecord> {
  /** The collection's documents seen through the fields every catalog document has, which are all its queries name. */
  private readonly model: DocModel<CatalogDocBase>;

  /** `liveKeyOf` names the unique key of a live record (its code by default; a subscription's private plan uses its id). */
  constructor(
    model: DocModel<CatalogDoc<T>>,
    private readonly liveKeyOf: (record: T) => string = (record) => record.code,
  ) {
    // the compiler cannot resolve the paths of CatalogDoc<T> for an unknown T; CatalogDocBase's are among them
    this.model = model as unknown as DocModel<CatalogDocBase>;
  }

  readonly outbox = () => embeddedOutboxStore(this.model);

  /** A record as the domain sees it: every catalog document is stored with all its record's fields. */
  protected static toDomain<T extends CatalogRecord>(doc: CatalogDoc<T>): T {
    const { _id, live_key: _liveKey, outbox: _outbox, ...rest } = doc;
    return { ...rest, id: _id } as unknown as T;
  }

  private toDoc(record: T): CatalogDoc<T> {
    const { id, ...rest } = record;
    return { ...rest, _id: id, live_key: record.deleted_at ? `deleted:${id}` : this.liveKeyOf(record) };
  }

  async findLive(organizationId: string, code: string): Promise<T | null> {
    const doc = await this.model
      .findOne({ organization_id: organizationId, live_key: code }, NO_OUTBOX)
      .lean<CatalogDoc<T>>();
    return doc ? CatalogRepository.toDomain(doc) : null;
  }

  async findLiveByCodes(organizationId: string, codes: string[]): Promise<T[]> {
    if (codes.length === 0) return [];
    const docs = await this.model
      .find({ organization_id: organizationId, live_key: { $in: codes } }, NO_OUTBOX)
      .lean<CatalogDoc<T>[]>();
    return docs.map((d) => CatalogRepository.toDomain(d));
  }

  async findLiveByIds(organizationId: string, ids: string[]): Promise<T[]> {
    if (ids.length === 0) return [];
    const docs = await this.model
      .find({ organization_id: organizationId, _id: { $in: ids }, deleted_at: null }, NO_OUTBOX)
      .lean<CatalogDoc<T>[]>();
    return docs.map((d) => CatalogRepository.toDomain(d));
  }

  /** Records by id, deleted ones included (a subscription still shows the plan it was billed on). */
  async findByIds(organizationId: string, ids: string[]): Promise<T[]> {
    if (ids.length === 0) return [];
    const docs = await this.model
      .find({ organization_id: organizationId, _id: { $in: ids } }, NO_OUTBOX)
      .lean<CatalogDoc<T>[]>();
    return docs.map((d) => CatalogRepository.toDomain(d));
  }

  /** Newest first, `_id` as tiebreaker. */
  async listLive(organizationId: string, page: PageRequest): Promise<{ items: T[]; total: number }> {
    const filter: Filter<CatalogDocBase> = { organization_id: organizationId, deleted_at: null };
    const [docs, total] = await Promise.all([
      this.model
        .find(filter, NO_OUTBOX)
        .sort({ created_at: -1, _id: -1 })
        .skip(skipOf(page))
        .limit(page.perPage)
        .lean<CatalogDoc<T>[]>(),
      this.model.countDocuments(filter),
    ]);
    return { items: docs.map((d) => CatalogRepository.toDomain(d)), total };
  }

  async insert(record: T, event?: Envelope): Promise<WriteOutcome> {
    return (await insertWithEvent(this.model.collection, this.toDoc(record), event)) === "duplicate"
      ? "duplicate_code"
      : "ok";
  }

  /** Replaces a record if nobody changed it since `expectedUpdatedAt`. */
  async replace(record: T, expectedUpdatedAt: Date, event?: Envelope): Promise<WriteOutcome> {
    const outcome = await replaceWithEvent(this.model.collection, this.toDoc(record), expectedUpdatedAt, event);
    return outcome === "duplicate" ? "duplicate_code" : outcome;
  }
}
