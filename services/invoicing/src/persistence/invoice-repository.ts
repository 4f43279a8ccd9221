import type { Envelope } from "@billing/bus";
import { embeddedOutboxStore, isDuplicateKeyError, skipOf, type PageRequest } from "@billing/mongo";
import type { Invoice } from "../domain/invoice";
import { scopeFilter, type DueScope } from "./copy-repository";
import type { Models } from "./models";

type InvoiceDoc = Omit<Invoice, "id"> & { _id: string };
const invoiceOf = ({ _id, ...rest }: InvoiceDoc): Invoice => ({ ...rest, id: _id } as Invoice);
const NO_OUTBOX = { outbox: 0 };

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

export class InvoiceRepository {
  constructor(private readonly models: Models) {}

  outbox() {
    return embeddedOutboxStore(this.models.invoices);
  }

  /** Stores a new invoice with its events; false when that invoice (same derived id) already exists. */
  async insert(invoice: Invoice, events: Envelope[]): Promise<boolean> {
    const { id, ...fields } = invoice;
    try {
      await this.models.invoices.collection.insertOne({ _id: id, ...fields, outbox: events } as never);
      return true;
    } catch (err) {
      if (isDuplicateKeyError(err)) return false;
      throw err;
    }
  }

  /** One of the organization's visible invoices (a `closed` zero-amount invoice is kept but not shown, as Lago). */
  async find(organizationId: string, id: string): Promise<Invoice | null> {
    const doc = await this.models.invoices.findOne({ _id: id, organization_id: organizationId, status: { $ne: "closed" } }, NO_OUTBOX).lean<InvoiceDoc>();
    return doc ? invoiceOf(doc) : null;
  }

  async findById(id: string): Promise<Invoice | null> {
    const doc = await this.models.invoices.findById(id, NO_OUTBOX).lean<InvoiceDoc>();
    return doc ? invoiceOf(doc) : null;
  }

  async list(organizationId: string, filter: InvoiceFilter, page: PageRequest): Promise<{ items: Invoice[]; total: number }> {
    const query: Record<string, unknown> = { organization_id: organizationId, status: { $ne: "closed" } };
    if (filter.externalCustomerId) query.external_customer_id = filter.externalCustomerId;
    if (filter.status) query.status = filter.status;
    if (filter.paymentStatus) query["view.payment_status"] = filter.paymentStatus;
    if (filter.statuses) query.status = { $in: filter.statuses.filter((s) => s !== "closed") };
    if (filter.paymentStatuses) query["view.payment_status"] = { $in: filter.paymentStatuses };
    if (filter.invoiceType) query["view.invoice_type"] = filter.invoiceType;
    if (filter.issuingDateFrom || filter.issuingDateTo) {
      query.issuing_date = { ...(filter.issuingDateFrom ? { $gte: filter.issuingDateFrom } : {}), ...(filter.issuingDateTo ? { $lte: filter.issuingDateTo } : {}) };
    }
    const [docs, total] = await Promise.all([
      this.models.invoices.find(query, NO_OUTBOX).sort({ created_at: -1, _id: -1 }).skip(skipOf(page)).limit(page.perPage).lean<InvoiceDoc[]>(),
      this.models.invoices.countDocuments(query),
    ]);
    return { items: docs.map(invoiceOf), total };
  }

  /**
   * Replaces a draft (refreshed or finalized) if nobody changed it since it was read, with the
   * events of that change; false on a lost race or when it is no longer a draft.
   */
  async replaceDraft(next: Invoice, expectedUpdatedAt: Date, events: Envelope[]): Promise<boolean> {
    const { id, ...fields } = next;
    const res = await this.models.invoices.updateOne(
      { _id: id, status: "draft", updated_at: expectedUpdatedAt },
      { $set: fields, ...(events.length ? { $push: { outbox: { $each: events } } } : {}) },
    );
    return res.modifiedCount === 1;
  }

  /** Drafts whose grace period has ended. */
  async dueDrafts(now: Date, limit: number, scope: DueScope = {}): Promise<Invoice[]> {
    const docs = await this.models.invoices.find({ status: "draft", finalize_at: { $lte: now }, ...scopeFilter(scope) }, NO_OUTBOX)
      .sort({ finalize_at: 1 }).limit(limit).lean<InvoiceDoc[]>();
    return docs.map(invoiceOf);
  }

  async nextFinalizationAfter(organizationId: string, after: Date): Promise<Date | null> {
    const doc = await this.models.invoices.findOne({ organization_id: organizationId, status: "draft", finalize_at: { $gt: after } }, { finalize_at: 1 })
      .sort({ finalize_at: 1 }).lean<{ finalize_at: Date }>();
    return doc?.finalize_at ?? null;
  }
}
