import { docModel, isDuplicateKeyError, type DocModel } from "@billing/mongo";
import { Schema, type Connection } from "mongoose";

/** Who works on an invoice's due amount: a manual payment (for the moment it is applied) or a provider attempt (until it is final). */
export interface ClaimHolder {
  id: string;
  kind: "manual" | "provider";
}

interface ClaimDoc {
  _id: string;
  organization_id: string;
  holder_id: string | null;
  holder_kind: ClaimHolder["kind"] | null;
  /** system time: how long a holder has had it (the sweeper frees a claim its holder never stored) */
  claimed_at: Date | null;
}

/** One document per invoice ever paid here, keyed by the invoice id: every read and write is by `_id` (fast on the test server too). */
const claimSchema = new Schema<ClaimDoc>(
  { _id: String, organization_id: String, holder_id: String, holder_kind: String, claimed_at: Date },
  { versionKey: false },
);
// the sweeper's look for claims still held (real MongoDB; the test server scans a page of them)
claimSchema.index({ holder_id: 1, claimed_at: 1 });

export function registerClaimModel(connection: Connection): DocModel<ClaimDoc> {
  return docModel(connection, "InvoiceClaim", claimSchema, { collection: "invoice_claims", reuse: true });
}

/**
 * Invoices' payment claims: one payment at a time reads and pays an invoice's due amount, so a
 * manual payment never lands while a provider attempt is charging or waiting for the customer, and
 * two manual payments never both take what is due. A claim is taken by one conditional write (free,
 * or already the holder's: a retry, a redelivery) and released by its holder only.
 */
export class InvoiceClaims {
  constructor(private readonly model: DocModel<ClaimDoc>) {}

  /** Takes the invoice's claim for this holder: null once it is the holder's, else who holds it. */
  async take(invoiceId: string, organizationId: string, holder: ClaimHolder): Promise<ClaimHolder | null> {
    const set = {
      organization_id: organizationId,
      holder_id: holder.id,
      holder_kind: holder.kind,
      claimed_at: new Date(),
    };
    for (let round = 0; round < 3; round++) {
      const res = await this.model.updateOne({ _id: invoiceId, holder_id: { $in: [null, holder.id] } }, { $set: set });
      if (res.matchedCount === 1) return null;
      try {
        await this.model.create({ _id: invoiceId, ...set });
        return null;
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
      }
      const current = await this.holderOf(invoiceId);
      if (current && current.id !== holder.id) return current;
      // released meanwhile: take it again
    }
    return this.holderOf(invoiceId);
  }

  /** Frees the invoice, if this holder still holds it. */
  async release(invoiceId: string, holderId: string): Promise<void> {
    await this.model.updateOne(
      { _id: invoiceId, holder_id: holderId },
      { $set: { holder_id: null, holder_kind: null, claimed_at: null } },
    );
  }

  async holderOf(invoiceId: string): Promise<ClaimHolder | null> {
    const doc = await this.model.findById(invoiceId).lean<ClaimDoc>();
    return doc?.holder_id && doc.holder_kind ? { id: doc.holder_id, kind: doc.holder_kind } : null;
  }

  /** Claims held since before `before` (system time), oldest first: the sweeper's to check. */
  async heldSince(before: Date, limit: number): Promise<{ invoice_id: string; holder: ClaimHolder }[]> {
    const docs = await this.model
      .find({ holder_id: { $ne: null }, claimed_at: { $lte: before } })
      .sort({ claimed_at: 1 })
      .limit(limit)
      .lean<ClaimDoc[]>();
    return docs.flatMap((d) =>
      d.holder_id && d.holder_kind ? [{ invoice_id: d._id, holder: { id: d.holder_id, kind: d.holder_kind } }] : [],
    );
  }
}
