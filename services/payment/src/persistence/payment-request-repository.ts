import type { Envelope, OutboxStore } from "@billing/bus";
import { Rpc } from "@billing/contracts";
import { replyCodec } from "@billing/grpc";
import { embeddedOutboxStore, skipOf, type DocModel, type Filter, type PageRequest } from "@billing/mongo";
import type { PaymentRequest, PaymentRequestStatus } from "../domain/payment-request";
import type { Bytes, PaymentRequestDoc, StoredSnapshot } from "./payment-request-model";

// the snapshot keeps each reply as its protobuf bytes, read back by its message type
const customerReply = replyCodec(Rpc.customer, "GetCustomer");
const invoiceReply = replyCodec(Rpc.invoicing, "GetInvoice");
const bytesOf = (b: Bytes): Uint8Array => (Buffer.isBuffer(b) ? b : b.buffer);

/**
 * A stored snapshot as the domain reads it. The only place older documents are upgraded: a reply
 * kept as JSON text (before the snapshot was typed) goes through its message type's encoding, which
 * keeps the fields the message still has and drops the rest.
 */
function snapshotOf(stored: StoredSnapshot): PaymentRequest["snapshot"] {
  if ("customer_json" in stored && typeof stored.customer_json === "string") {
    // the text is what the reply's object was when stored; the encoder checks it against the message
    type CustomerReply = Parameters<typeof customerReply.encode>[0];
    type InvoiceReply = Parameters<typeof invoiceReply.encode>[0];
    return {
      customer: customerReply.decode(customerReply.encode(JSON.parse(stored.customer_json) as CustomerReply)).customer!,
      invoices: stored.invoices_json.map(
        (text) => invoiceReply.decode(invoiceReply.encode(JSON.parse(text) as InvoiceReply)).invoice!,
      ),
    };
  }
  const { customer, invoices } = stored as Extract<StoredSnapshot, { customer: Bytes }>;
  return {
    customer: customerReply.decode(bytesOf(customer)).customer!,
    invoices: invoices.map((i) => invoiceReply.decode(bytesOf(i)).invoice!),
  };
}

const requestOf = ({ _id, outbox: _outbox, snapshot, ...rest }: PaymentRequestDoc): PaymentRequest => ({
  ...rest,
  snapshot: snapshotOf(snapshot),
  id: _id,
});

export interface PaymentRequestFilter {
  externalCustomerId?: string;
  paymentStatus?: string;
}

/** Payment requests; every query is scoped to one organization, every change carries its event. */
export class PaymentRequestRepository {
  constructor(private readonly model: DocModel<PaymentRequestDoc>) {}

  readonly outbox = (): OutboxStore => embeddedOutboxStore(this.model);

  /** Stores a new request and its event in one insert (its id is new: nothing to collide with). */
  async insert(request: PaymentRequest, event: Envelope): Promise<void> {
    const { id, snapshot, ...rest } = request;
    const bytes = {
      customer: customerReply.encode({ customer: snapshot.customer }),
      invoices: snapshot.invoices.map((invoice) => invoiceReply.encode({ invoice })),
    };
    await this.model.collection.insertOne({ _id: id, ...rest, snapshot: bytes, outbox: [event] });
  }

  /** By id (an `_id` read, fast on the test server too), in its organization only. */
  async find(organizationId: string, id: string): Promise<PaymentRequest | null> {
    const doc = await this.model.findById(id, { outbox: 0 }).lean<PaymentRequestDoc>();
    return doc?.organization_id === organizationId ? requestOf(doc) : null;
  }

  /** Newest first, `_id` as tiebreaker. */
  async list(
    organizationId: string,
    filter: PaymentRequestFilter,
    page: PageRequest,
  ): Promise<{ items: PaymentRequest[]; total: number }> {
    const query: Filter<PaymentRequestDoc> = { organization_id: organizationId };
    if (filter.externalCustomerId !== undefined) query.external_customer_id = filter.externalCustomerId;
    // a client's value, as it came: one that is no status matches nothing
    if (filter.paymentStatus !== undefined) query.payment_status = filter.paymentStatus as PaymentRequestStatus;
    const [docs, total] = await Promise.all([
      this.model
        .find(query, { outbox: 0 })
        .sort({ created_at: -1, _id: -1 })
        .skip(skipOf(page))
        .limit(page.perPage)
        .lean<PaymentRequestDoc[]>(),
      this.model.countDocuments(query),
    ]);
    return { items: docs.map(requestOf), total };
  }

  /** A pending request's new status and its event, once: false when it is no longer pending. */
  async settle(id: string, status: PaymentRequestStatus, now: Date, event: Envelope): Promise<boolean> {
    const res = await this.model.collection.updateOne(
      { _id: id, payment_status: "pending" },
      { $set: { payment_status: status, updated_at: now }, $push: { outbox: event } },
    );
    return res.modifiedCount === 1;
  }
}
