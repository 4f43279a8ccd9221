import type { Envelope, OutboxStore } from "@billing/bus";
import {
  docModel,
  embeddedOutboxStore,
  isDuplicateKeyError,
  skipOf,
  textOutboxEntry,
  type DocModel,
  type Filter,
  type OutboxDoc,
  type PageRequest,
} from "@billing/mongo";
import { Schema, type Connection } from "mongoose";
import type { AdvanceFeeRecord, FeePaymentStatus } from "../domain/advance-fees";
import type { Fee } from "../domain/invoice";

const mixed = Schema.Types.Mixed;

/** A stored pay-in-advance fee (see the schema): the record's fields, the fee as its text, and what queries need beside it. */
export interface FeeDoc extends Omit<AdvanceFeeRecord, "id" | "fee"> {
  _id: string;
  /** the fee as fields: documents written before fee_json */
  fee?: Fee;
  fee_json?: string;
  period_to?: Date | null;
  deleted_at?: Date | null;
}

/**
 * Pay-in-advance fees, one document each, `_id` = the fee's derived id (a second insert of the same
 * fee is refused). The fee itself (Fee: item, amounts, taxes, details) never changes once stored
 * and is never queried inside: it is kept as its JSON text, `fee_json`, one BSON string instead of
 * some sixty fields (a burst writes thousands a second: the driver and the server size, copy and
 * encode one string). What queries need is beside it: `period_to` (the fee's charges period end).
 * Documents written before hold `fee` as fields; both read the same.
 */
const feeSchema = new Schema<FeeDoc>(
  {
    _id: String,
    organization_id: String,
    customer_id: String,
    external_customer_id: String,
    subscription_id: String,
    external_subscription_id: String,
    billable_metric_code: String,
    currency: String,
    fee: mixed,
    fee_json: String,
    period_to: Date,
    invoice_id: String,
    event_transaction_id: String,
    payment_status: String,
    succeeded_at: Date,
    failed_at: Date,
    refunded_at: Date,
    created_at: Date,
    updated_at: Date,
    revision: Number,
    deleted_at: Date,
  },
  { versionKey: false, minimize: false, collection: "advance_fees" },
);
// GET /fees: the organization's fees newest first, then its filters (production MongoDB; the test
// server scans: the lists are not on a hot path, the consumer writes by _id only).
feeSchema.index({ organization_id: 1, deleted_at: 1, created_at: -1, _id: -1 });
feeSchema.index({ organization_id: 1, external_customer_id: 1, created_at: -1 });
feeSchema.index({ organization_id: 1, external_subscription_id: 1, created_at: -1 });
// the paid waiting fees an advance_charges invoice gathers
feeSchema.index({ organization_id: 1, subscription_id: 1, invoice_id: 1 });

/**
 * The `advance_fees.created` events of one envelope's fees (written after the fees: never announced
 * before they are stored), each as its text (textOutboxEntry: a few hundred fees per event).
 */
const batchSchema = new Schema<OutboxDoc>(
  { _id: String, outbox: [mixed] },
  { versionKey: false, collection: "advance_fee_batches" },
);

export interface FeeFilter {
  externalCustomerId?: string;
  externalSubscriptionId?: string;
  currency?: string;
  billableMetricCode?: string;
  paymentStatus?: string;
  eventTransactionId?: string;
  created?: { from?: Date; to?: Date };
  succeeded?: { from?: Date; to?: Date };
  failed?: { from?: Date; to?: Date };
  refunded?: { from?: Date; to?: Date };
}

/** The stored fee's text back to a Fee (its instants as Dates). */
function feeOfText(json: string): Fee {
  const fee = JSON.parse(json) as Fee;
  const at = (v: unknown) => (typeof v === "string" ? new Date(v) : (v as Date | null | undefined));
  fee.from = at(fee.from) ?? null;
  fee.to = at(fee.to) ?? null;
  if (fee.usage_read_at !== undefined) fee.usage_read_at = at(fee.usage_read_at) ?? null;
  return fee;
}

// field by field: spreading a record this size per fee was a tenth of a burst's CPU in this service
const docOf = (r: AdvanceFeeRecord): FeeDoc => ({
  _id: r.id,
  organization_id: r.organization_id,
  customer_id: r.customer_id,
  external_customer_id: r.external_customer_id,
  subscription_id: r.subscription_id,
  external_subscription_id: r.external_subscription_id,
  billable_metric_code: r.billable_metric_code,
  currency: r.currency,
  fee_json: JSON.stringify(r.fee),
  period_to: r.fee.to,
  invoice_id: r.invoice_id,
  event_transaction_id: r.event_transaction_id,
  payment_status: r.payment_status,
  succeeded_at: r.succeeded_at,
  failed_at: r.failed_at,
  refunded_at: r.refunded_at,
  created_at: r.created_at,
  updated_at: r.updated_at,
  revision: r.revision,
  deleted_at: null,
});
const recordOf = ({ _id, deleted_at: _d, fee, fee_json, period_to: _p, ...rest }: FeeDoc): AdvanceFeeRecord => ({
  id: _id,
  ...rest,
  fee: fee_json !== undefined ? feeOfText(fee_json) : fee!,
});
const range = (r?: { from?: Date; to?: Date }) =>
  r && (r.from || r.to) ? { ...(r.from ? { $gte: r.from } : {}), ...(r.to ? { $lte: r.to } : {}) } : undefined;

export class FeeRepository {
  private readonly fees: DocModel<FeeDoc>;
  private readonly batches: DocModel<OutboxDoc>;

  constructor(connection: Connection) {
    this.fees = docModel(connection, "AdvanceFee", feeSchema);
    this.batches = docModel(connection, "AdvanceFeeBatch", batchSchema);
  }

  outbox(): OutboxStore {
    return embeddedOutboxStore(this.batches);
  }

  /** Stores the fees not stored yet (unordered; one already there, same derived id, is left as it is). */
  async insertMany(records: readonly AdvanceFeeRecord[]): Promise<void> {
    if (records.length === 0) return;
    const docs = records.map(docOf);
    try {
      await this.fees.collection.insertMany(docs, { ordered: false });
    } catch (err) {
      const writeErrors = (err as { writeErrors?: unknown }).writeErrors;
      const list = (Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : []) as Array<{
        code?: number;
        err?: { code?: number };
      }>;
      if (list.length === 0 && isDuplicateKeyError(err)) return;
      if (list.length === 0 || list.some((e) => (e.code ?? e.err?.code) !== 11000)) throw err;
    }
  }

  /** Stores envelopes' events once each (one unordered insert); answers the ids stored now (the others were stored by an earlier delivery). */
  async insertBatches(batches: ReadonlyArray<{ id: string; events: Envelope[] }>): Promise<string[]> {
    const nonEmpty = batches.filter((b) => b.events.length > 0);
    if (nonEmpty.length === 0) return [];
    try {
      await this.batches.collection.insertMany(
        nonEmpty.map((b) => ({ _id: b.id, outbox: b.events.map(textOutboxEntry) })),
        { ordered: false },
      );
      return nonEmpty.map((b) => b.id);
    } catch (err) {
      const writeErrors = (err as { writeErrors?: unknown }).writeErrors;
      const list = (Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : []) as Array<{
        index?: number;
        code?: number;
        err?: { code?: number; index?: number };
      }>;
      if (list.length === 0 && isDuplicateKeyError(err) && nonEmpty.length === 1) return [];
      if (list.length === 0 || list.some((e) => (e.code ?? e.err?.code) !== 11000)) throw err;
      const refused = new Set(list.map((e) => e.index ?? e.err?.index));
      return nonEmpty.filter((_, i) => !refused.has(i)).map((b) => b.id);
    }
  }

  async findById(organizationId: string, id: string): Promise<AdvanceFeeRecord | null> {
    const doc = await this.fees.findById(id).lean<FeeDoc>();
    return doc && doc.organization_id === organizationId && !doc.deleted_at ? recordOf(doc) : null;
  }

  async findByIds(ids: readonly string[]): Promise<AdvanceFeeRecord[]> {
    if (ids.length === 0) return [];
    const docs = await this.fees.find({ _id: { $in: ids } }).lean<FeeDoc[]>();
    return docs.map(recordOf);
  }

  async list(
    organizationId: string,
    filter: FeeFilter,
    page: PageRequest,
  ): Promise<{ items: AdvanceFeeRecord[]; total: number }> {
    const query: Filter<FeeDoc> = { organization_id: organizationId, deleted_at: null };
    if (filter.externalCustomerId) query.external_customer_id = filter.externalCustomerId;
    if (filter.externalSubscriptionId) query.external_subscription_id = filter.externalSubscriptionId;
    if (filter.currency) query.currency = filter.currency;
    if (filter.billableMetricCode) query.billable_metric_code = filter.billableMetricCode;
    // a client's value, as it came: one that is no status matches nothing
    if (filter.paymentStatus) query.payment_status = filter.paymentStatus as FeePaymentStatus;
    if (filter.eventTransactionId) query.event_transaction_id = filter.eventTransactionId;
    for (const [field, r] of [
      ["created_at", filter.created],
      ["succeeded_at", filter.succeeded],
      ["failed_at", filter.failed],
      ["refunded_at", filter.refunded],
    ] as const) {
      const cond = range(r);
      if (cond) query[field] = cond;
    }
    const [docs, total] = await Promise.all([
      this.fees.find(query).sort({ created_at: -1, _id: -1 }).skip(skipOf(page)).limit(page.perPage).lean<FeeDoc[]>(),
      this.fees.countDocuments(query),
    ]);
    return { items: docs.map(recordOf), total };
  }

  /** A fee's payment status, from the revision it was read at; false when it changed meanwhile. */
  async setPaymentStatus(fee: AdvanceFeeRecord, status: FeePaymentStatus, at: Date): Promise<boolean> {
    const stamp =
      status === "succeeded"
        ? { succeeded_at: at }
        : status === "failed"
          ? { failed_at: at }
          : status === "refunded"
            ? { refunded_at: at }
            : {};
    const res = await this.fees.updateOne(
      { _id: fee.id, revision: fee.revision },
      { $set: { payment_status: status, ...stamp, updated_at: at, revision: fee.revision + 1 } },
    );
    return res.modifiedCount === 1;
  }

  /** Deletes a waiting fee (kept, marked deleted), from the revision it was read at; false when it changed meanwhile. */
  async markDeleted(fee: AdvanceFeeRecord, at: Date): Promise<boolean> {
    const res = await this.fees.updateOne(
      { _id: fee.id, revision: fee.revision, invoice_id: null },
      { $set: { deleted_at: at, updated_at: at, revision: fee.revision + 1 } },
    );
    return res.modifiedCount === 1;
  }

  /**
   * The subscriptions' PAID fees waiting for an invoice (an advance_charges invoice gathers them):
   * paid by `paidBy`, and on a periodic run only those whose charges period ended by then.
   * Production MongoDB: the { organization_id, subscription_id, invoice_id } index; the test server scans.
   */
  async paidWaiting(
    organizationId: string,
    subscriptionIds: readonly string[],
    paidBy: Date,
    periodEndedBy: Date | null,
  ): Promise<AdvanceFeeRecord[]> {
    if (subscriptionIds.length === 0) return [];
    const docs = await this.fees
      .find({
        organization_id: organizationId,
        subscription_id: { $in: subscriptionIds },
        invoice_id: null,
        deleted_at: null,
        payment_status: "succeeded",
        succeeded_at: { $lte: paidBy },
        // documents written before `period_to` hold the period in `fee.to`
        ...(periodEndedBy
          ? {
              $or: [
                { period_to: { $lte: periodEndedBy } },
                { period_to: { $exists: false }, "fee.to": { $lte: periodEndedBy } },
              ],
            }
          : {}),
      })
      .sort({ created_at: 1, _id: 1 })
      .lean<FeeDoc[]>();
    return docs.map(recordOf);
  }

  /** Puts these fees on an invoice: those still waiting (a repeated call changes nothing). */
  async attach(ids: readonly string[], invoiceId: string, at: Date): Promise<void> {
    if (ids.length === 0) return;
    await this.fees.updateMany(
      { _id: { $in: ids }, invoice_id: null },
      { $set: { invoice_id: invoiceId, updated_at: at }, $inc: { revision: 1 } },
    );
  }
}
