import type { Model } from "mongoose";
import type { Envelope } from "@billing/bus";
import { isDuplicateKeyError } from "@billing/mongo";

/** A write's outcome: stored, refused by a unique index, or lost to a concurrent change. */
export type OutboxWrite = "ok" | "duplicate" | "lost_race";

/** Inserts a document with its event (if any) in the embedded outbox, in the same write; "duplicate" when a unique index refuses it. */
export async function insertWithEvent(model: Model<any>, doc: { _id: string }, event?: Envelope): Promise<"ok" | "duplicate"> {
  try {
    await model.collection.insertOne({ ...doc, outbox: event ? [event] : [] } as never);
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
  model: Model<any>,
  doc: { _id: string; organization_id: string },
  expectedUpdatedAt: Date,
  event?: Envelope,
): Promise<OutboxWrite> {
  const { _id, ...fields } = doc;
  const update = event ? { $set: fields, $push: { outbox: event } } : { $set: fields };
  try {
    const result = await model.collection.updateOne(
      { _id, organization_id: doc.organization_id, updated_at: expectedUpdatedAt } as never,
      update as never,
    );
    return result.matchedCount === 1 ? "ok" : "lost_race";
  } catch (err) {
    if (isDuplicateKeyError(err)) return "duplicate";
    throw err;
  }
}
