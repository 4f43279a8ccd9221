import type { Model } from "mongoose";
import type { Envelope, OutboxStore } from "@billing/bus";

/**
 * An outbox kept inside the documents of one collection (field `outbox`):
 * the change and its event are written by the same single-document update.
 */
export function embeddedOutboxStore(model: Model<any>): OutboxStore {
  return {
    name: model.collection.collectionName,
    async pending(limit) {
      const docs = await model
        .find({ "outbox.0": { $exists: true } }, { outbox: 1 })
        .sort({ _id: 1 })
        .limit(limit)
        .lean<Array<{ _id: string; outbox: Envelope[] }>>();
      return docs.flatMap((doc) => doc.outbox.map((envelope) => ({ documentId: doc._id, envelope })));
    },
    async markPublished(published) {
      await model.bulkWrite([...published].map(([documentId, envelopeIds]) => ({
        updateOne: { filter: { _id: documentId }, update: { $pull: { outbox: { id: { $in: envelopeIds } } } } },
      })) as never, { ordered: false });
    },
  };
}
