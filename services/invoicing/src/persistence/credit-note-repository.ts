import type { Envelope } from "@billing/bus";
import {
  docModel,
  embeddedOutboxStore,
  isDuplicateKeyError,
  skipOf,
  type DocModel,
  type Filter,
  type PageRequest,
  type Update,
} from "@billing/mongo";
import { Schema, type Connection } from "mongoose";
import type { CreditNote } from "../domain/credit-note";
import { announceDocumentOnce } from "./document-repository";

const mixed = Schema.Types.Mixed;

/** A stored credit note: the note with its id as `_id`, whether its PDF was announced, and its embedded outbox. */
export interface CreditNoteDoc extends Omit<CreditNote, "id"> {
  _id: string;
  document_announced?: boolean;
  outbox?: Envelope[];
}

/** A credit note as the domain sees it. */
const noteOf = ({ _id, document_announced: _announced, outbox: _outbox, ...rest }: CreditNoteDoc): CreditNote => ({
  ...rest,
  id: _id,
});

/** Credit notes: one document each (items, taxes, the invoices that consumed it), events in its outbox. */
const creditNoteSchema = new Schema<CreditNoteDoc>(
  {
    _id: String,
    organization_id: String,
    customer_id: String,
    external_customer_id: String,
    customer: mixed,
    invoice_id: String,
    invoice_number: String,
    billing_entity_code: String,
    sequential_id: Number,
    number: String,
    issuing_date: String,
    reason: String,
    description: String,
    currency: String,
    credit_status: String,
    refund_status: String,
    total_amount_cents: Number,
    credit_amount_cents: Number,
    refund_amount_cents: Number,
    offset_amount_cents: Number,
    balance_amount_cents: Number,
    taxes_amount_cents: Number,
    precise_taxes_amount_cents: String,
    taxes_rate: Number,
    sub_total_excluding_taxes_amount_cents: Number,
    coupons_adjustment_amount_cents: Number,
    precise_coupons_adjustment_amount_cents: String,
    items: mixed,
    applied_taxes: mixed,
    consumptions: mixed,
    termination_of: String,
    progressive_excess_of: String,
    void_part: String,
    voided_at: Date,
    refunded_at: Date,
    revision: Number,
    created_at: Date,
    updated_at: Date,
    document_announced: Boolean,
    outbox: [mixed],
  },
  { versionKey: false, minimize: false, collection: "credit_notes" },
);
// real MongoDB: an invoice's notes (creation checks what is left), the list, and a customer's
// available balances (finalization); the test server scans, which the collection's size allows
creditNoteSchema.index({ invoice_id: 1, sequential_id: 1 });
creditNoteSchema.index({ organization_id: 1, created_at: -1, _id: -1 });
creditNoteSchema.index({ organization_id: 1, customer_id: 1, credit_status: 1, created_at: 1 });

const NO_OUTBOX = { outbox: 0 } as const;

export interface CreditNoteFilter {
  externalCustomerId?: string;
  issuingDateFrom?: string;
  issuingDateTo?: string;
  currency?: string;
  reason?: string;
  creditStatus?: string;
  refundStatus?: string;
  invoiceNumber?: string;
  amountFrom?: number;
  amountTo?: number;
  searchTerm?: string;
  billingEntityCodes?: string[];
}

export class CreditNoteRepository {
  private readonly model: DocModel<CreditNoteDoc>;

  constructor(connection: Connection) {
    this.model = docModel(connection, "CreditNote", creditNoteSchema, { reuse: true });
  }

  outbox() {
    return embeddedOutboxStore(this.model);
  }

  /** Stores a new note with its events; false when that id (the invoice's n-th note) is taken. */
  async insert(note: CreditNote, events: Envelope[]): Promise<boolean> {
    const { id, ...fields } = note;
    try {
      await this.model.collection.insertOne({ _id: id, ...fields, outbox: events });
      return true;
    } catch (err) {
      if (isDuplicateKeyError(err)) return false;
      throw err;
    }
  }

  async find(organizationId: string, id: string): Promise<CreditNote | null> {
    const doc = await this.model.findOne({ _id: id, organization_id: organizationId }, NO_OUTBOX).lean<CreditNoteDoc>();
    return doc ? noteOf(doc) : null;
  }

  async findById(id: string): Promise<CreditNote | null> {
    const doc = await this.model.findById(id, NO_OUTBOX).lean<CreditNoteDoc>();
    return doc ? noteOf(doc) : null;
  }

  /** An invoice's notes, in their order. */
  async ofInvoice(invoiceId: string): Promise<CreditNote[]> {
    const docs = await this.model
      .find({ invoice_id: invoiceId }, NO_OUTBOX)
      .sort({ sequential_id: 1 })
      .lean<CreditNoteDoc[]>();
    return docs.map(noteOf);
  }

  /** A customer's notes with a credit balance left, in a currency, oldest first (what an invoice being finalized may consume). */
  async available(organizationId: string, customerId: string, currency: string): Promise<CreditNote[]> {
    const docs = await this.model
      .find(
        {
          organization_id: organizationId,
          customer_id: customerId,
          credit_status: "available",
          currency,
          balance_amount_cents: { $gt: 0 },
        },
        NO_OUTBOX,
      )
      .sort({ created_at: 1, _id: 1 })
      .lean<CreditNoteDoc[]>();
    return docs.map(noteOf);
  }

  async list(
    organizationId: string,
    filter: CreditNoteFilter,
    page: PageRequest,
  ): Promise<{ items: CreditNote[]; total: number }> {
    const query: Filter<CreditNoteDoc> = { organization_id: organizationId };
    if (filter.externalCustomerId) query.external_customer_id = filter.externalCustomerId;
    if (filter.currency) query.currency = filter.currency;
    // a client's values, as they came: one that is none of the stored values matches nothing
    if (filter.reason) query.reason = filter.reason as CreditNote["reason"];
    if (filter.creditStatus) query.credit_status = filter.creditStatus as CreditNote["credit_status"];
    if (filter.refundStatus) query.refund_status = filter.refundStatus as CreditNote["refund_status"];
    if (filter.invoiceNumber) query.invoice_number = filter.invoiceNumber;
    if (filter.billingEntityCodes?.length) query.billing_entity_code = { $in: filter.billingEntityCodes };
    if (filter.issuingDateFrom || filter.issuingDateTo) {
      query.issuing_date = {
        ...(filter.issuingDateFrom ? { $gte: filter.issuingDateFrom } : {}),
        ...(filter.issuingDateTo ? { $lte: filter.issuingDateTo } : {}),
      };
    }
    if (filter.amountFrom !== undefined || filter.amountTo !== undefined) {
      query.total_amount_cents = {
        ...(filter.amountFrom !== undefined ? { $gte: filter.amountFrom } : {}),
        ...(filter.amountTo !== undefined ? { $lte: filter.amountTo } : {}),
      };
    }
    if (filter.searchTerm) {
      // the term matched literally: regex syntax escaped, and a NUL byte written \x00 (a BSON regex is a C string: a raw NUL fails the query)
      const term = new RegExp(filter.searchTerm.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\0/g, "\\x00"), "i");
      query.$or = [
        { number: term },
        { _id: filter.searchTerm },
        { external_customer_id: term },
        { "customer.name": term },
        { "customer.email": term },
      ];
    }
    const [docs, total] = await Promise.all([
      this.model
        .find(query, NO_OUTBOX)
        .sort({ created_at: -1, _id: -1 })
        .skip(skipOf(page))
        .limit(page.perPage)
        .lean<CreditNoteDoc[]>(),
      this.model.countDocuments(query),
    ]);
    return { items: docs.map(noteOf), total };
  }

  /** Changes a note only from the revision it was read at (the change and its events in one write); false on a lost race. */
  async change(
    note: Pick<CreditNote, "id" | "revision">,
    set: Partial<Omit<CreditNote, "id">>,
    events: Envelope[] = [],
  ): Promise<boolean> {
    const update: Update<CreditNoteDoc> = { $set: { ...set, revision: note.revision + 1 } };
    if (events.length) update.$push = { outbox: { $each: events } };
    const res = await this.model.updateOne({ _id: note.id, revision: note.revision }, update);
    return res.modifiedCount === 1;
  }

  /** Announces the note's PDF once (its events in the write that marks it announced); false when it was already. */
  async announceDocument(noteId: string, events: Envelope[]): Promise<boolean> {
    return announceDocumentOnce(this.model.collection, noteId, events);
  }
}
