import { Schema, type Connection, type Model } from "mongoose";
import { storedBody, type DeadLetter, type DeadLetterStore, type ParkedMessage } from "@billing/bus";
import { isDuplicateKeyError } from "./connection";

/** A `dead_letters` document: a DeadLetter with its id as `_id`. */
type DeadLetterDocument = Omit<DeadLetter, "id"> & { _id: string };

const headerSchema = new Schema<{ key: string; value: string }>(
  { key: { type: String, required: true }, value: { type: String, required: true } },
  { _id: false },
);

const deadLetterSchema = new Schema<DeadLetterDocument>(
  {
    _id: { type: String, required: true },
    stream: { type: String, required: true },
    durable: { type: String, required: true },
    subject: { type: String, required: true },
    stream_seq: { type: Number, required: true },
    envelope_id: { type: String, default: null },
    organization_id: { type: String, default: null },
    body: { type: String, default: null },
    body_encoding: { type: String, enum: ["utf8", "base64", null], default: null },
    headers: { type: [headerSchema], default: [] },
    reason: { type: String, required: true },
    error: { type: String, default: null },
    deliveries: { type: Number, required: true },
    parks: { type: Number, required: true },
    first_parked_at: { type: Date, required: true },
    parked_at: { type: Date, required: true },
    status: { type: String, enum: ["parked", "replayed"], required: true },
    replayed_at: { type: Date, default: null },
    replay_count: { type: Number, required: true },
  },
  { collection: "dead_letters", versionKey: false },
);
// the operator's list: a status, oldest first (real MongoDB; the test server scans this small collection)
deadLetterSchema.index({ status: 1, parked_at: 1, _id: 1 });

/** The model on each connection (a process that wires several services has one per connection). */
const models = new WeakMap<Connection, Model<DeadLetterDocument>>();

/** The `dead_letters` model of a service's connection (registered once; its index is made by `initModels`). */
export function deadLetterModel(connection: Connection): Model<DeadLetterDocument> {
  let model = models.get(connection);
  if (!model) {
    model = connection.model<DeadLetterDocument>("DeadLetter", deadLetterSchema);
    models.set(connection, model);
  }
  return model;
}

function letterOf(doc: DeadLetterDocument): DeadLetter {
  const { _id, ...rest } = doc;
  return { id: _id, ...rest, headers: rest.headers.map(({ key, value }) => ({ key, value })) };
}

export interface DeadLetterFilter {
  status?: DeadLetter["status"];
  durable?: string;
  limit?: number;
}

/**
 * The service's parked messages, in its own database (`dead_letters`, keyed by `_id`: the id
 * derived from the stream, the durable and the stream sequence, so a redelivered message is stored
 * once). The runtime hands it to every consumer (the bus's `consumerDefaults`); the
 * `dead-letters` command lists and replays from it.
 */
export class MongoDeadLetterStore implements DeadLetterStore {
  private readonly model: Model<DeadLetterDocument>;

  constructor(connection: Connection) {
    this.model = deadLetterModel(connection);
  }

  async park(message: ParkedMessage): Promise<boolean> {
    const change = {
      reason: message.reason,
      error: message.error,
      deliveries: message.deliveries,
      parked_at: message.parkedAt,
    };
    if (message.replayOf) {
      // a replay that failed again: its record is parked again (once, whatever the redeliveries)
      const again = await this.model.updateOne(
        { _id: message.replayOf, status: "replayed" },
        { $set: { ...change, status: "parked" }, $inc: { parks: 1 } },
      );
      if (again.modifiedCount === 1) return true;
      if (await this.exists(message.replayOf)) return false;
      // its record was deleted meanwhile: parked as a message of its own below
    }
    const fresh: DeadLetterDocument = {
      _id: message.id,
      stream: message.stream,
      durable: message.durable,
      subject: message.subject,
      stream_seq: message.streamSeq,
      envelope_id: message.envelopeId,
      organization_id: message.organizationId,
      ...storedBody(message.body),
      headers: message.headers,
      ...change,
      parks: 1,
      first_parked_at: message.parkedAt,
      status: "parked",
      replayed_at: null,
      replay_count: 0,
    };
    try {
      const { _id, ...insert } = fresh;
      const result = await this.model.updateOne({ _id }, { $setOnInsert: insert }, { upsert: true });
      return result.upsertedCount === 1;
    } catch (err) {
      // another replica parked the same message at the same moment
      if (isDuplicateKeyError(err) && (await this.exists(message.id))) return false;
      throw err;
    }
  }

  private async exists(id: string): Promise<boolean> {
    return (await this.model.findOne({ _id: id }, { _id: 1 }).lean()) !== null;
  }

  /** Dead letters, oldest parked first (100 at most unless `limit` says). */
  async list(filter: DeadLetterFilter = {}): Promise<DeadLetter[]> {
    const query = {
      ...(filter.status && { status: filter.status }),
      ...(filter.durable && { durable: filter.durable }),
    };
    const docs = await this.model
      .find(query)
      .sort({ parked_at: 1, _id: 1 })
      .limit(filter.limit ?? 100)
      .lean<DeadLetterDocument[]>();
    return docs.map(letterOf);
  }

  async find(id: string): Promise<DeadLetter | null> {
    const doc = await this.model.findOne({ _id: id }).lean<DeadLetterDocument>();
    return doc ? letterOf(doc) : null;
  }

  /**
   * Marks a dead letter replayed (before it is published: a replay that fails again at once finds
   * it so, and parks it again); false when someone replayed it meanwhile (its count moved).
   */
  async markReplayed(letter: DeadLetter, at: Date): Promise<boolean> {
    const result = await this.model.updateOne(
      { _id: letter.id, replay_count: letter.replay_count },
      { $set: { status: "replayed", replayed_at: at }, $inc: { replay_count: 1 } },
    );
    return result.modifiedCount === 1;
  }

  /** Undoes markReplayed when the replay could not be published. */
  async unmarkReplayed(letter: DeadLetter): Promise<void> {
    await this.model.updateOne(
      { _id: letter.id, replay_count: letter.replay_count + 1 },
      { $set: { status: letter.status, replayed_at: letter.replayed_at }, $inc: { replay_count: -1 } },
    );
  }
}
