import type { AdvanceBucketState } from "@billing/pricing";
import type { Connection, mongo } from "mongoose";
import { findByIds } from "./collections";

/**
 * The running state of one pay-in-advance bucket (subscription, charge, filter, group, charges
 * period): `rev` moves by one per envelope that changed it, `env` names that envelope.
 */
export interface AdvanceBucketDoc {
  _id: string;
  rev: number;
  env: string;
  st: AdvanceBucketState;
}

/** A bucket's state as an envelope leaves it, and the revision it was computed from. */
export interface BucketChange {
  id: string;
  from_rev: number;
  st: AdvanceBucketState;
}

/**
 * The answer given for one envelope: its fees (JSON text) and the bucket states it moves to.
 * Written before the states move, so asking again answers the same fees and moves nothing twice.
 */
export interface AdvanceAnswerDoc {
  _id: string;
  fees: string;
  changes: BucketChange[];
}

const isDuplicate = (err: unknown) => (err as { code?: number })?.code === 11000;

/** Both collections are read and written by `_id` only (the test server's one index besides unique ones). */
export class AdvanceStore {
  private readonly buckets: mongo.Collection<AdvanceBucketDoc>;
  private readonly answers: mongo.Collection<AdvanceAnswerDoc>;

  constructor(connection: Connection) {
    const db = connection.db;
    if (!db) throw new Error("the usage database is not connected");
    this.buckets = db.collection<AdvanceBucketDoc>("advance_buckets");
    this.answers = db.collection<AdvanceAnswerDoc>("advance_answers");
  }

  answer(id: string): Promise<AdvanceAnswerDoc | null> {
    return this.answers.findOne({ _id: id });
  }

  /** true when stored; false when an answer is stored already (it is the one that counts). */
  async insertAnswer(doc: AdvanceAnswerDoc): Promise<boolean> {
    try {
      await this.answers.insertOne(doc);
      return true;
    } catch (err) {
      if (isDuplicate(err)) return false;
      throw err;
    }
  }

  async deleteAnswer(id: string): Promise<void> {
    await this.answers.deleteOne({ _id: id });
  }

  bucketsByIds(ids: readonly string[]): Promise<AdvanceBucketDoc[]> {
    return findByIds(this.buckets, ids);
  }

  /**
   * Moves each bucket from the revision it was computed from to the next one (a new bucket is
   * inserted at revision 1). Answers the ids that were not at that revision (moved by someone else).
   */
  async applyChanges(envelope: string, changes: readonly BucketChange[]): Promise<string[]> {
    if (changes.length === 0) return [];
    const ops = changes.map((c) =>
      c.from_rev === 0
        ? { insertOne: { document: { _id: c.id, rev: 1, env: envelope, st: c.st } } }
        : { updateOne: { filter: { _id: c.id, rev: c.from_rev }, update: { $set: { rev: c.from_rev + 1, env: envelope, st: c.st } } } },
    );
    try {
      const result = await this.buckets.bulkWrite(ops as mongo.AnyBulkWriteOperation<AdvanceBucketDoc>[], { ordered: false });
      if (result.matchedCount + result.insertedCount === changes.length) return [];
    } catch (err) {
      const writeErrors = (err as { writeErrors?: Array<{ code: number }> | { code: number } }).writeErrors;
      const list = Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : [];
      if (list.length === 0 || list.some((e) => e.code !== 11000)) throw err;
    }
    // some did not move: those already at this envelope's state (a retry) count as moved
    const current = new Map((await this.bucketsByIds(changes.map((c) => c.id))).map((d) => [d._id, d]));
    return changes
      .filter((c) => {
        const doc = current.get(c.id);
        return !(doc && doc.rev === c.from_rev + 1 && doc.env === envelope);
      })
      .map((c) => c.id);
  }
}
