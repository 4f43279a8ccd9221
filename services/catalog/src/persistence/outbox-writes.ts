import type { Envelope } from "@billing/bus";
import { isDuplicateKeyError, type DocCollection, type Update } from "@billing/mongo";

/** What the documents these writes store have: an organization, a change time and an embedded outbox. */
export interface OutboxedDoc {
  _id: string;
  organization_id: string;
  updated_at: Date;
  outbox?: Envelope[];
}

/** A write's outcome: stored, refused by a unique index, or lost to a concurrent change. */
export type OutboxWrite = "ok" | "duplicate" | "lost_race";

/** Inserts a document with its event (if any) in the embedded outbox, in the same write; "duplicate" when a unique index refuses it. */
export async function insertWithEvent(
  collection: DocCollection<OutboxedDoc>,
  doc: OutboxedDoc,
  event?: Envelope,
): Promise<"ok" | "duplicate"> {
  try {
    await collection.insertOne({ ...doc, outbox: event ? [event] : [] });
    return "ok";
  } catch (err) {
    if (isDuplicateKeyError(err)) return "duplicate";
    throw err;
  }
}

/**
 * Replaces a document's fields and appends its event (if any) to the embedded outbox, in one
 * update, if nobody changed it since `expectedUpdatedAt` (else "lost_race": read again).
 */
export async function replaceWithEvent(
  collection: DocCollection<OutboxedDoc>,
  doc: OutboxedDoc,
  expectedUpdatedAt: Date,
  event?: Envelope,
): Promise<OutboxWrite> {
  const { _id, ...fields } = doc;
  const update: Update<OutboxedDoc> = event ? { $set: fields, $push: { outbox: event } } : { $set: fields };
  try {
    const result = await collection.updateOne(
      { _id, organization_id: doc.organization_id, updated_at: expectedUpdatedAt },
      update,
    );
    return result.matchedCount === 1 ? "ok" : "lost_race";
  } catch (err) {
    if (isDuplicateKeyError(err)) return "duplicate";
    throw err;
  }
}
