import type { Envelope } from "@billing/bus";
import { embeddedOutboxStore, isDuplicateKeyError, skipOf, type Filter, type PageRequest } from "@billing/mongo";
import type { OverpaymentStatus, Payment, PaymentStatus } from "../domain/payment";
import { toPayment as paymentOf, type Models, type PaymentDoc } from "./models";
/** An unapplied payment is the sweeper's after this long (system time): its own request is done with it by then. */
const SWEEP_AFTER_MS = 5_000;
const sweepAt = () => new Date(Date.now() + SWEEP_AFTER_MS);

export interface PaymentFilter {
  externalCustomerId?: string;
  invoiceId?: string;
}

/** Payments; every query is scoped to one organization. */
export class PaymentRepository {
  constructor(private readonly models: Models) {}

  /** The payments' embedded outbox (events written by the same update as the change they announce). */
  readonly outbox = () => embeddedOutboxStore(this.models.payments);

  /** Stores a payment once, with its events: "duplicate" when its id is already there (a retry of the same attempt). */
  async insert(payment: Payment, events: readonly Envelope[] = []): Promise<"ok" | "duplicate"> {
    const { id, ...rest } = payment;
    try {
      await this.models.payments.collection.insertOne({ _id: id, ...rest, sweep_at: sweepAt(), outbox: [...events] });
      return "ok";
    } catch (err) {
      if (isDuplicateKeyError(err)) return "duplicate";
      throw err;
    }
  }

  /** By id (an `_id` read, fast on the test server too), in its organization only. */
  async find(organizationId: string, id: string): Promise<Payment | null> {
    const payment = await this.findById(id);
    return payment?.organization_id === organizationId ? payment : null;
  }

  /** By id alone (the service's own follow-ups of a payment it holds). */
  async findById(id: string): Promise<Payment | null> {
    const doc = await this.models.payments.findById(id).lean<PaymentDoc>();
    return doc ? paymentOf(doc) : null;
  }

  /** Newest first, `_id` as tiebreaker. */
  async list(
    organizationId: string,
    filter: PaymentFilter,
    page: PageRequest,
  ): Promise<{ items: Payment[]; total: number }> {
    const query: Filter<PaymentDoc> = { organization_id: organizationId };
    if (filter.externalCustomerId !== undefined) query.external_customer_id = filter.externalCustomerId;
    if (filter.invoiceId !== undefined) query.invoice_id = filter.invoiceId;
    const [docs, total] = await Promise.all([
      this.models.payments
        .find(query)
        .sort({ created_at: -1, _id: -1 })
        .skip(skipOf(page))
        .limit(page.perPage)
        .lean<PaymentDoc[]>(),
      this.models.payments.countDocuments(query),
    ]);
    return { items: docs.map(paymentOf), total };
  }

  /** An invoice's provider attempts, first to last. */
  async attemptsOf(organizationId: string, invoiceId: string): Promise<Payment[]> {
    const docs = await this.models.payments
      .find({ organization_id: organizationId, invoice_id: invoiceId, type: "provider" })
      .sort({ attempt: 1 })
      .lean<PaymentDoc[]>();
    return docs.map(paymentOf);
  }

  /** An invoice's latest succeeded payment (manual or provider), or null (Lago refunds that one). */
  async latestSucceeded(organizationId: string, invoiceId: string): Promise<Payment | null> {
    const docs = await this.models.payments
      .find({ organization_id: organizationId, invoice_id: invoiceId, payment_status: "succeeded" })
      .sort({ created_at: -1, _id: -1 })
      .limit(1)
      .lean<PaymentDoc[]>();
    return docs[0] ? paymentOf(docs[0]) : null;
  }

  /** A charge's result written on its payment, once: only over the state it was read in (pending or processing). */
  async setOutcome(
    payment: Payment,
    change: Pick<Payment, "status" | "payment_status" | "provider_payment_id" | "next_action">,
    now: Date,
    events: readonly Envelope[] = [],
  ): Promise<boolean> {
    const res = await this.models.payments.collection.updateOne(
      { _id: payment.id, payment_status: payment.payment_status },
      {
        $set: { ...change, applied: false, updated_at: now, sweep_at: sweepAt() },
        $push: { outbox: { $each: [...events] } },
      },
    );
    return res.modifiedCount === 1;
  }

  /** Its current outcome reached the invoice (with the events that announce it, for a manual payment: told only once applied). */
  async markApplied(id: string, paymentStatus: PaymentStatus, events: readonly Envelope[] = []): Promise<boolean> {
    const res = await this.models.payments.updateOne(
      { _id: id, payment_status: paymentStatus, applied: false },
      { $set: { applied: true }, ...(events.length > 0 && { $push: { outbox: { $each: [...events] } } }) },
    );
    return res.modifiedCount === 1;
  }

  /** A manual payment its invoice refused (credited or voided since it was checked): it was never recorded for the client. */
  async discardRefusedManual(id: string): Promise<void> {
    await this.models.payments.deleteOne({ _id: id, type: "manual", applied: false });
  }

  /**
   * The part of a succeeded payment its invoice could not take, recorded once (with its event in
   * the same write): false when it was recorded before (a retry, a crash's sweep).
   */
  async recordOverpayment(
    id: string,
    amountCents: number,
    status: OverpaymentStatus,
    now: Date,
    events: readonly Envelope[],
  ): Promise<boolean> {
    const res = await this.models.payments.updateOne(
      { _id: id, overpaid_amount_cents: { $in: [null, 0] } },
      {
        $set: { overpaid_amount_cents: amountCents, overpayment_status: status, updated_at: now },
        $push: { outbox: { $each: [...events] } },
      },
    );
    return res.modifiedCount === 1;
  }

  /** How giving an overpayment back stands, moved on once from `from`. */
  async setOverpaymentStatus(id: string, from: OverpaymentStatus, to: OverpaymentStatus): Promise<void> {
    await this.models.payments.updateOne({ _id: id, overpayment_status: from }, { $set: { overpayment_status: to } });
  }

  /** Overpayments whose refund is still to be asked for or settled (the refund sweeper's; real MongoDB: the overpayment_status index; the test server scans). */
  async overpaymentsToRefund(limit: number): Promise<Payment[]> {
    const docs = await this.models.payments
      .find({ overpayment_status: "refund_pending" })
      .limit(limit)
      .lean<PaymentDoc[]>();
    return docs.map(paymentOf);
  }

  /** Payments whose outcome has not reached their invoice (a crash between the two), left alone long enough. */
  async unapplied(limit = 200): Promise<Payment[]> {
    const docs = await this.models.payments
      .find({ applied: false, sweep_at: { $lte: new Date() } })
      .sort({ sweep_at: 1 })
      .limit(limit)
      .lean<PaymentDoc[]>();
    return docs.map(paymentOf);
  }
}
