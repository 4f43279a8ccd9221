import type { Envelope } from "@billing/bus";
import {
  embeddedOutboxStore,
  isDuplicateKeyError,
  skipOf,
  type DocFields,
  type Filter,
  type PageRequest,
  type Update,
} from "@billing/mongo";
import {
  OPEN_STATUSES,
  UNPAID_STATUSES,
  VISIBLE_STATUSES,
  type Fee,
  type Invoice,
  type InvoiceStatus,
} from "../domain/invoice";
import { scopeFilter, type DueScope } from "./copy-repository";
import { announceDocumentOnce } from "./document-repository";
import { toInvoice as invoiceOf, type InvoiceDoc, type Models } from "./models";

const NO_OUTBOX = { outbox: 0, sequences: 0, document_announced: 0 } as const;

export interface InvoiceFilter {
  externalCustomerId?: string;
  status?: string;
  paymentStatus?: string;
  invoiceType?: string;
  issuingDateFrom?: string;
  issuingDateTo?: string;
  statuses?: string[];
  paymentStatuses?: string[];
}

/** What an invoice write changes: fields to set, fields to clear, events to add to its outbox. */
export interface InvoiceChange {
  set: Partial<Omit<Invoice, "id">>;
  unset?: Array<keyof Omit<Invoice, "id">>;
  /** raise finalize_at to at most this instant (an interrupted finalization is resumed by the due pass) */
  finalizeBy?: Date;
  events?: Envelope[];
}

export class InvoiceRepository {
  constructor(private readonly models: Models) {}

  outbox() {
    return embeddedOutboxStore(this.models.invoices);
  }

  /** Stores a new invoice with its events; false when that invoice (same derived id) already exists. */
  async insert(invoice: Invoice, events: Envelope[]): Promise<boolean> {
    const { id, ...fields } = invoice;
    try {
      await this.models.invoices.collection.insertOne({ _id: id, ...fields, outbox: events });
      return true;
    } catch (err) {
      if (isDuplicateKeyError(err)) return false;
      throw err;
    }
  }

  async findById(id: string): Promise<Invoice | null> {
    const doc = await this.models.invoices.findById(id, NO_OUTBOX).lean<InvoiceDoc>();
    return doc ? invoiceOf(doc) : null;
  }

  async findByIds(ids: readonly string[]): Promise<Invoice[]> {
    if (ids.length === 0) return [];
    const docs = await this.models.invoices.find({ _id: { $in: ids } }, NO_OUTBOX).lean<InvoiceDoc[]>();
    return docs.map(invoiceOf);
  }

  /** One of the organization's invoices with one of `statuses` (by default the visible ones). */
  async find(
    organizationId: string,
    id: string,
    statuses: readonly InvoiceStatus[] = VISIBLE_STATUSES,
  ): Promise<Invoice | null> {
    const doc = await this.models.invoices
      .findOne({ _id: id, organization_id: organizationId, status: { $in: statuses } }, NO_OUTBOX)
      .lean<InvoiceDoc>();
    return doc ? invoiceOf(doc) : null;
  }

  /** The organization's visible invoice holding the fee `feeId` (GET /fees/{id}; index `fees.id` in production, a scan on the test server). */
  async findVisibleByFeeId(organizationId: string, feeId: string): Promise<Invoice | null> {
    const doc = await this.models.invoices
      .findOne({ organization_id: organizationId, "fees.id": feeId, status: { $in: VISIBLE_STATUSES } }, NO_OUTBOX)
      .lean<InvoiceDoc>();
    return doc ? invoiceOf(doc) : null;
  }

  /** The organization's visible invoices, newest first, filtered as Lago's list is. */
  async list(
    organizationId: string,
    filter: InvoiceFilter,
    page: PageRequest,
  ): Promise<{ items: Invoice[]; total: number }> {
    const visible = (wanted: readonly string[]) => VISIBLE_STATUSES.filter((s) => wanted.includes(s));
    let statuses: readonly InvoiceStatus[] = VISIBLE_STATUSES;
    if (filter.status) statuses = visible([filter.status]);
    if (filter.statuses) statuses = visible(filter.statuses).filter((s) => statuses.includes(s));
    // a client's values, as they came: one that is none of the stored values matches nothing
    const query: Filter<InvoiceDoc> = { organization_id: organizationId, status: { $in: statuses } };
    if (filter.externalCustomerId) query.external_customer_id = filter.externalCustomerId;
    const payment = [filter.paymentStatus, ...(filter.paymentStatuses ?? [])].filter((p): p is string => !!p) as Array<
      Invoice["payment_status"]
    >;
    if (filter.paymentStatus && filter.paymentStatuses) {
      query.payment_status = filter.paymentStatuses.includes(filter.paymentStatus)
        ? (filter.paymentStatus as Invoice["payment_status"])
        : { $in: [] };
    } else if (payment.length) query.payment_status = { $in: payment };
    if (filter.invoiceType) query.invoice_type = filter.invoiceType as Invoice["invoice_type"];
    if (filter.issuingDateFrom || filter.issuingDateTo) {
      query.issuing_date = {
        ...(filter.issuingDateFrom ? { $gte: filter.issuingDateFrom } : {}),
        ...(filter.issuingDateTo ? { $lte: filter.issuingDateTo } : {}),
      };
    }
    const [docs, total] = await Promise.all([
      this.models.invoices
        .find(query, NO_OUTBOX)
        .sort({ created_at: -1, billed_at: -1, _id: -1 })
        .skip(skipOf(page))
        .limit(page.perPage)
        .lean<InvoiceDoc[]>(),
      this.models.invoices.countDocuments(query),
    ]);
    return { items: docs.map(invoiceOf), total };
  }

  /** A subscription's fees on the invoices of its billings before `before` (a minimum commitment spans several). */
  async feesBilledBefore(organizationId: string, subscriptionId: string, before: Date): Promise<Fee[]> {
    const docs = await this.models.invoices
      .find(
        {
          organization_id: organizationId,
          "lines.subscription_id": subscriptionId,
          billed_at: { $lt: before },
          status: { $in: [...OPEN_STATUSES, "finalized"] },
          invoice_type: { $ne: "progressive_billing" }, // their usage is billed again (and credited) on the period's invoice
        },
        { fees: 1 },
      )
      .lean<Array<Pick<Invoice, "fees">>>();
    return docs.flatMap((d) => d.fees.filter((f) => f.subscription_id === subscriptionId));
  }

  /** The newest finalized invoice with a subscription's base fee (what a termination of a pay-in-advance plan credits). */
  async lastWithSubscriptionFee(organizationId: string, subscriptionId: string): Promise<Invoice | null> {
    const docs = await this.models.invoices
      .find(
        { organization_id: organizationId, "lines.subscription_id": subscriptionId, status: "finalized" },
        NO_OUTBOX,
      )
      .sort({ billed_at: -1, _id: -1 })
      .limit(12)
      .lean<InvoiceDoc[]>();
    const doc = docs.find((d) =>
      d.fees.some((f) => f.fee_type === "subscription" && f.subscription_id === subscriptionId && f.amount_cents > 0),
    );
    return doc ? invoiceOf(doc) : null;
  }

  /** The invoices that billed a subscription's periods (past usage), newest first. */
  async billedPeriodsOf(
    organizationId: string,
    externalCustomerId: string,
    externalSubscriptionId: string,
    limit: number,
  ): Promise<Invoice[]> {
    const docs = await this.models.invoices
      .find(
        {
          organization_id: organizationId,
          external_customer_id: externalCustomerId,
          "lines.external_subscription_id": externalSubscriptionId,
          status: { $in: ["draft", "finalized"] },
          invoice_type: { $ne: "progressive_billing" }, // a period's usage is the period invoice's
        },
        NO_OUTBOX,
      )
      .sort({ billed_at: -1, _id: -1 })
      .limit(limit)
      .lean<InvoiceDoc[]>();
    return docs.map(invoiceOf);
  }

  /**
   * Changes an invoice only if it is still open with the revision it was read at (one conditional
   * write: the change and its events together). False on a lost race or once it is no longer open.
   */
  async changeOpen(invoice: Pick<Invoice, "id" | "revision">, change: InvoiceChange): Promise<boolean> {
    return this.change(
      { _id: invoice.id, status: { $in: OPEN_STATUSES }, revision: invoice.revision },
      invoice.revision,
      change,
    );
  }

  /** Changes a finalized invoice only from the revision it was read at. */
  async changeFinalized(invoice: Pick<Invoice, "id" | "revision">, change: InvoiceChange): Promise<boolean> {
    return this.change({ _id: invoice.id, status: "finalized", revision: invoice.revision }, invoice.revision, change);
  }

  /**
   * Announces that a finalized invoice became overdue: the flag and the event in one write, only
   * from the revision it was read at and only while the flag is unset. Two replicas, a retry or a
   * redelivered check write it once; a payment stored meanwhile makes it lose (false).
   */
  async announceOverdue(invoice: Pick<Invoice, "id" | "revision">, change: InvoiceChange): Promise<boolean> {
    return this.change(
      { _id: invoice.id, status: "finalized", revision: invoice.revision, payment_overdue_announced_at: null },
      invoice.revision,
      change,
    );
  }

  /** Lago's invoice.generated for an invoice's first PDF: the flag and the events in one conditional write (once, whoever rendered it). */
  async announceDocument(invoiceId: string, events: Envelope[]): Promise<boolean> {
    return announceDocumentOnce(this.models.invoices.collection, invoiceId, events);
  }

  private async change(filter: Filter<InvoiceDoc>, revision: number, change: InvoiceChange): Promise<boolean> {
    const set: DocFields<InvoiceDoc> = { ...change.set, revision: revision + 1 };
    const update: Update<InvoiceDoc> = { $set: set };
    if (change.unset?.length) {
      const unset: NonNullable<Update<InvoiceDoc>["$unset"]> = {};
      for (const key of change.unset) unset[key] = "";
      update.$unset = unset;
    }
    if (change.finalizeBy) update.$min = { finalize_at: change.finalizeBy };
    if (change.events?.length) update.$push = { outbox: { $each: change.events } };
    const res = await this.models.invoices.updateOne(filter, update);
    return res.modifiedCount === 1;
  }

  /** Open invoices whose time to be finalized has come (drafts at the end of their grace period). */
  async dueOpen(now: Date, limit: number, scope: DueScope = {}): Promise<Invoice[]> {
    const docs = await this.models.invoices
      .find({ status: { $in: OPEN_STATUSES }, finalize_at: { $lte: now }, ...scopeFilter(scope) }, NO_OUTBOX)
      .sort({ finalize_at: 1, _id: 1 })
      .limit(limit)
      .lean<InvoiceDoc[]>();
    return docs.map(invoiceOf);
  }

  async nextFinalizationAfter(organizationId: string, after: Date): Promise<Date | null> {
    const doc = await this.models.invoices
      .findOne(
        { organization_id: organizationId, status: { $in: OPEN_STATUSES }, finalize_at: { $gt: after } },
        { finalize_at: 1 },
      )
      .sort({ finalize_at: 1 })
      .lean<{ finalize_at: Date }>();
    return doc?.finalize_at ?? null;
  }

  /**
   * Finalized invoices not paid, due before `today` (the clock's day), whose becoming overdue was
   * not announced yet; oldest due first. Indexed for real MongoDB (models.ts); the test server scans.
   */
  async dueOverdue(today: string, limit: number, scope: DueScope = {}): Promise<Invoice[]> {
    const docs = await this.models.invoices
      .find({ ...overdueFilter(), payment_due_date: { $lt: today }, ...scopeFilter(scope) }, NO_OUTBOX)
      .sort({ payment_due_date: 1, _id: 1 })
      .limit(limit)
      .lean<InvoiceDoc[]>();
    return docs.map(invoiceOf);
  }

  /** The earliest payment due date on or after `day` of the organization's unpaid, not yet announced invoices. */
  async nextOverdueDueDate(organizationId: string, day: string): Promise<string | null> {
    const doc = await this.models.invoices
      .findOne(
        { organization_id: organizationId, ...overdueFilter(), payment_due_date: { $gte: day } },
        { payment_due_date: 1 },
      )
      .sort({ payment_due_date: 1 })
      .lean<{ payment_due_date: string }>();
    return doc?.payment_due_date ?? null;
  }
}

/** Unpaid finalized invoices not announced overdue yet (`null` also matches invoices stored before the flag existed). */
const overdueFilter = (): Filter<InvoiceDoc> => ({
  status: "finalized",
  payment_overdue_announced_at: null,
  payment_status: { $in: UNPAID_STATUSES },
});
