import type { Envelope, OutboxStore } from "@billing/bus";
import { docModel, embeddedOutboxStore, isDuplicateKeyError, type DocModel, type Filter } from "@billing/mongo";
import { Schema, type Connection } from "mongoose";
import type { Refund, RefundStatus } from "../domain/refund";

/** A stored refund: its fields, with its id as `_id`, and its embedded outbox. */
export interface RefundDoc extends Omit<Refund, "id"> {
  _id: string;
  outbox?: Envelope[];
}

/** A refund as the domain sees it. */
const refundOf = ({ _id, outbox: _outbox, ...rest }: RefundDoc): Refund => ({ ...rest, id: _id });

/** Refunds, keyed by their svc id (derived from the credit note's: one per note), their events in an embedded outbox. */
const refundSchema = new Schema<RefundDoc>(
  {
    _id: String,
    organization_id: { type: String, required: true },
    kind: String,
    credit_note_id: String,
    invoice_id: String,
    customer_id: String,
    external_customer_id: String,
    payment_id: String,
    provider: Schema.Types.Mixed,
    provider_payment_id: String,
    amount_cents: Number,
    currency: String,
    status: String,
    provider_refund_id: String,
    failure: Schema.Types.Mixed,
    applied: Boolean,
    asked_at: Date,
    created_at: Date,
    updated_at: Date,
    outbox: { type: [Schema.Types.Mixed], default: undefined },
  },
  { versionKey: false, minimize: false },
);
// an invoice's refunds (real MongoDB; reads by id go through `_id`)
refundSchema.index({ organization_id: 1, invoice_id: 1 });
// the refund sweeper's list: those whose outcome has not reached their note (the test server scans;
// the collection holds one document per refunded credit note, and the sweeper reads a page per round)
refundSchema.index({ applied: 1, updated_at: 1 });

export function registerRefundModel(connection: Connection): DocModel<RefundDoc> {
  return docModel(connection, "Refund", refundSchema, { collection: "refunds", reuse: true });
}

export class RefundRepository {
  constructor(private readonly model: DocModel<RefundDoc>) {}

  readonly outbox = (): OutboxStore => embeddedOutboxStore(this.model);

  /** "duplicate" when the note's refund is already stored (a redelivery, another replica). */
  async insert(refund: Refund): Promise<"ok" | "duplicate"> {
    const { id, ...rest } = refund;
    try {
      await this.model.collection.insertOne({ _id: id, ...rest });
      return "ok";
    } catch (err) {
      if (isDuplicateKeyError(err)) return "duplicate";
      throw err;
    }
  }

  async findById(id: string): Promise<Refund | null> {
    const doc = await this.model.findById(id, { outbox: 0 }).lean<RefundDoc>();
    return doc ? refundOf(doc) : null;
  }

  async find(organizationId: string, id: string): Promise<Refund | null> {
    const refund = await this.findById(id);
    return refund && refund.organization_id === organizationId ? refund : null;
  }

  /** The provider's answer written once: only while it is pending; its events in the same write. */
  async setOutcome(
    refund: Refund,
    change: { status: RefundStatus; provider_refund_id: string | null; failure: Refund["failure"] },
    now: Date,
    events: readonly Envelope[],
  ): Promise<boolean> {
    const res = await this.model.collection.updateOne(
      { _id: refund.id, status: "pending" },
      { $set: { ...change, updated_at: now }, $push: { outbox: { $each: [...events] } } },
    );
    return res.modifiedCount === 1;
  }

  /**
   * Refunds whose outcome has not reached their note: decided and not applied, or pending and not
   * asked about since `askedBefore`; least recently changed first.
   */
  async unsettled(limit: number, askedBefore: Date): Promise<Refund[]> {
    const due: Filter<RefundDoc> = {
      applied: false,
      $or: [{ status: { $ne: "pending" } }, { asked_at: null }, { asked_at: { $lt: askedBefore } }],
    };
    const docs = await this.model
      .find(due, { outbox: 0 })
      .sort({ updated_at: 1, _id: 1 })
      .limit(limit)
      .lean<RefundDoc[]>();
    return docs.map(refundOf);
  }

  /** The provider answered it is still pending (it is asked again after the recheck delay). */
  async markAsked(id: string, at: Date): Promise<void> {
    await this.model.collection.updateOne({ _id: id, status: "pending" }, { $set: { asked_at: at } });
  }

  /** Its outcome reached the credit note. */
  async markApplied(id: string, status: RefundStatus): Promise<void> {
    await this.model.collection.updateOne({ _id: id, status }, { $set: { applied: true } });
  }
}
