import { envelopeText, type Envelope, type OutboxStore } from "@billing/bus";
import type { DocModel } from "./typed";

/**
 * An outbox entry kept as its JSON text: one BSON string instead of the envelope's nested fields.
 * For outboxes of large events written at a high rate (a few hundred pay-in-advance fees per event):
 * the driver and the server (which sizes and copies every document it writes or updates) handle
 * one string instead of thousands of fields. `id` stays a field: publishing clears an entry by it.
 */
export interface TextOutboxEntry {
  id: string;
  json: string;
}

export const textOutboxEntry = (envelope: Envelope): TextOutboxEntry => ({
  id: envelope.id,
  json: envelopeText(envelope),
});

const envelopeOf = (entry: Envelope | TextOutboxEntry): Envelope =>
  typeof (entry as TextOutboxEntry).json === "string"
    ? (JSON.parse((entry as TextOutboxEntry).json) as Envelope)
    : (entry as Envelope);

/** What every document with an embedded outbox has. */
export interface OutboxDoc {
  _id: string;
  /** absent from documents that never had an event, and from reads that leave it out */
  outbox?: Array<Envelope | TextOutboxEntry>;
}

/**
 * An outbox kept inside the documents of one collection (field `outbox`):
 * the change and its event are written by the same single-document update.
 * Entries are envelopes or their text (textOutboxEntry).
 */
export function embeddedOutboxStore<T extends OutboxDoc>(collection: DocModel<T>): OutboxStore {
  // the compiler cannot resolve the paths of an unknown T: the store names only those of OutboxDoc, which T has
  const model = collection as unknown as DocModel<OutboxDoc>;
  return {
    name: model.collection.collectionName,
    async pending(limit) {
      const docs = await model
        .find({ "outbox.0": { $exists: true } }, { outbox: 1 })
        .sort({ _id: 1 })
        .limit(limit)
        .lean<Array<Required<OutboxDoc>>>();
      return docs.flatMap((doc) => doc.outbox.map((entry) => ({ documentId: doc._id, envelope: envelopeOf(entry) })));
    },
    async markPublished(published) {
      await model.bulkWrite(
        [...published].map(([documentId, envelopeIds]) => ({
          updateOne: { filter: { _id: documentId }, update: { $pull: { outbox: { id: { $in: envelopeIds } } } } },
        })),
        { ordered: false },
      );
    },
  };
}
