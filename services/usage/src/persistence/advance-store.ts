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
  /** null only after a batch that created it was rolled back */
  st: AdvanceBucketState | null;
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
  /** when it was stored (real time, housekeeping only: schedule/advance-answers-sweep.ts deletes it after ANSWER_KEEP_MS) */
  at?: Date;
}

/**
 * How long an answer is kept: longer than the usage stream keeps the envelope it answers
 * (`ensureStream`'s default max_age, 7 days, which Streams.usage uses). An envelope can only be
 * (re)delivered while it is in the stream, so no delivery can ever ask about an expired answer:
 * expiry can never make an envelope be priced twice. The expiry is a scheduled `deleteMany` (the
 * team's rule, design/mongo-compat.md §4: the test server has no TTL indexes, so a TTL could never
 * be tested), schedule/advance-answers-sweep.ts.
 */
export const ANSWER_KEEP_MS = 8 * 24 * 60 * 60 * 1000;

/**
 * A pay-in-advance charge version: `_id` = the version, `json` = the snapshot's canonical JSON
 * that version is the hash of (domain/charge-version.ts; text, as hashed: no field name of a
 * charge's properties or filter values meets BSON's rules on keys). Written once, never changed nor deleted: the fees naming it are
 * invoiced and audited long after the answers that priced them are gone (a distinct charge,
 * metric and currency is one small document, however many fees it priced).
 */
export interface ChargeVersionDoc {
  _id: string;
  json: string;
}

/** How many stored versions this process remembers (beyond, it forgets them all and writes again: insert-if-absent). */
const KNOWN_VERSIONS_LIMIT = 100_000;

const isDuplicate = (err: unknown) => (err as { code?: number })?.code === 11000;
/** A bulk write refused only for duplicate keys. */
function hasOnlyDuplicates(err: unknown): boolean {
  if (isDuplicate(err)) return true;
  const writeErrors = (err as { writeErrors?: Array<{ code: number }> | { code: number } }).writeErrors;
  const list = Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : [];
  return list.length > 0 && list.every((e) => e.code === 11000);
}

/** The collections are read and written by `_id` only (the test server's one index besides unique ones). */
export class AdvanceStore {
  private readonly buckets: mongo.Collection<AdvanceBucketDoc>;
  private readonly answers: mongo.Collection<AdvanceAnswerDoc>;
  private readonly versions: mongo.Collection<ChargeVersionDoc>;
  /** the charge versions this process stored (or found stored): a known one costs no write */
  private readonly storedVersions = new Set<string>();

  constructor(connection: Connection) {
    const db = connection.db;
    if (!db) throw new Error("the usage database is not connected");
    this.buckets = db.collection<AdvanceBucketDoc>("advance_buckets");
    this.answers = db.collection<AdvanceAnswerDoc>("advance_answers");
    this.versions = db.collection<ChargeVersionDoc>("advance_charge_versions");
  }

  /**
   * Stores the snapshots of the charge versions not known to be stored yet, each once
   * (insert-if-absent: unordered, a duplicate is another writer's same content), and resolves once
   * all of them are stored, so that no answer naming a version is kept before its snapshot. The
   * usual call, every version known, writes nothing.
   */
  async storeChargeVersions(docs: readonly ChargeVersionDoc[]): Promise<void> {
    const unknown = docs.filter((d) => !this.storedVersions.has(d._id));
    if (unknown.length === 0) return;
    try {
      await this.versions.insertMany(
        unknown.map((d) => ({ ...d })),
        { ordered: false },
      );
    } catch (err) {
      if (!hasOnlyDuplicates(err)) throw err;
    }
    if (this.storedVersions.size + unknown.length > KNOWN_VERSIONS_LIMIT) this.storedVersions.clear();
    for (const d of unknown) this.storedVersions.add(d._id);
  }

  chargeVersionsByIds(ids: readonly string[]): Promise<ChargeVersionDoc[]> {
    return findByIds(this.versions, ids);
  }

  /** The index the expiry sweep's range query uses on real MongoDB (the test server scans); idempotent. */
  async ensureIndexes(): Promise<void> {
    await this.answers.createIndex({ at: 1 }, { name: "answers_at" });
  }

  /** Deletes the answers stored before `cutoff` (see ANSWER_KEEP_MS); answers how many. */
  async deleteAnswersStoredBefore(cutoff: Date): Promise<number> {
    const res = await this.answers.deleteMany({ at: { $lt: cutoff } });
    return res.deletedCount;
  }

  answersByIds(ids: readonly string[]): Promise<AdvanceAnswerDoc[]> {
    return findByIds(this.answers, ids);
  }

  /**
   * Stores the answers in order (`ordered`: a crash leaves a prefix of them stored, never a later
   * one without an earlier one). Answers how many were stored: fewer than given when one was
   * answered already (another replica), and those after it are not stored.
   */
  async insertAnswers(docs: readonly AdvanceAnswerDoc[]): Promise<number> {
    if (docs.length === 0) return 0;
    const at = new Date(); // housekeeping time (the expiry sweep), not business time
    try {
      await this.answers.insertMany(
        docs.map((d) => ({ ...d, at })),
        { ordered: true },
      );
      return docs.length;
    } catch (err) {
      if (!hasOnlyDuplicates(err)) throw err;
      return (err as { insertedCount?: number }).insertedCount ?? 0;
    }
  }

  async deleteAnswers(ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await this.answers.deleteMany({ _id: { $in: [...ids] } });
  }

  /**
   * Moves each bucket of a batch once: from the revision it was priced from to that plus the number
   * of envelopes of the batch that moved it, `env` the last of them. Answers the ids that were not
   * at that revision (moved by someone else meanwhile); those of the others that did move are put back
   * by `rollBack` when the batch is priced again.
   */
  async applyBatch(changes: readonly (BucketChange & { to_rev: number; env: string })[]): Promise<string[]> {
    if (changes.length === 0 || (await this.move(changes))) return [];
    const current = new Map((await this.bucketsByIds(changes.map((c) => c.id))).map((d) => [d._id, d]));
    return changes
      .filter((c) => {
        const doc = current.get(c.id);
        return !(doc && doc.rev === c.to_rev && doc.env === c.env);
      })
      .map((c) => c.id);
  }

  /**
   * Puts back buckets a batch moved before it found others moved meanwhile: each still at the
   * batch's revision gets its earlier state at the next revision (never an earlier revision: a
   * state priced from the batch's cannot be applied after this).
   */
  async rollBack(
    moved: readonly { id: string; rev: number; env: string; st: AdvanceBucketState | null }[],
  ): Promise<void> {
    const ops = moved.map((m) => ({
      updateOne: {
        filter: { _id: m.id, rev: m.rev, env: m.env },
        update: { $set: { rev: m.rev + 1, env: `rollback|${m.env}`, st: m.st } },
      },
    }));
    if (ops.length > 0)
      await this.buckets.bulkWrite(ops as mongo.AnyBulkWriteOperation<AdvanceBucketDoc>[], { ordered: false });
  }

  /**
   * Completes the moves of an envelope answered earlier (a crash may have cut them short): each
   * bucket still at the revision the answer was priced from moves on. Answers the ids that are
   * behind it (an earlier envelope's moves are not done yet: it is still unacknowledged and will be
   * delivered again first).
   */
  async completeAnswer(envelope: string, changes: readonly BucketChange[]): Promise<string[]> {
    if (
      changes.length === 0 ||
      (await this.move(changes.map((c) => ({ ...c, to_rev: c.from_rev + 1, env: envelope }))))
    )
      return [];
    const current = new Map((await this.bucketsByIds(changes.map((c) => c.id))).map((d) => [d._id, d]));
    return changes.filter((c) => (current.get(c.id)?.rev ?? 0) < c.from_rev).map((c) => c.id);
  }

  /**
   * Moves each bucket from `from_rev` to `to_rev` (one not stored yet is inserted at `to_rev`), in one
   * unordered bulk write; true when every one moved (a bucket at another revision, or inserted by
   * someone else, is left as it is).
   */
  private async move(changes: readonly (BucketChange & { to_rev: number; env: string })[]): Promise<boolean> {
    const ops = changes.map((c) =>
      c.from_rev === 0
        ? { insertOne: { document: { _id: c.id, rev: c.to_rev, env: c.env, st: c.st } } }
        : {
            updateOne: {
              filter: { _id: c.id, rev: c.from_rev },
              update: { $set: { rev: c.to_rev, env: c.env, st: c.st } },
            },
          },
    );
    try {
      const result = await this.buckets.bulkWrite(ops as mongo.AnyBulkWriteOperation<AdvanceBucketDoc>[], {
        ordered: false,
      });
      return result.matchedCount + result.insertedCount === changes.length;
    } catch (err) {
      if (!hasOnlyDuplicates(err)) throw err;
      return false;
    }
  }

  bucketsByIds(ids: readonly string[]): Promise<AdvanceBucketDoc[]> {
    return findByIds(this.buckets, ids);
  }
}
