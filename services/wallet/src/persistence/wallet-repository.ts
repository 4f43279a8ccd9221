import { isDuplicateKeyError, skipOf, type PageRequest } from "@billing/mongo";
import type { Wallet, WalletTransaction } from "../domain/wallet";
import type { Models } from "./models";

type WalletDoc = Omit<Wallet, "id"> & { _id: string; code_key: string };
type TransactionDoc = Omit<WalletTransaction, "id"> & { _id: string };

const walletOf = ({ _id, code_key: _key, ...rest }: WalletDoc): Wallet => ({
  ...rest,
  id: _id,
  sandbox: rest.sandbox ?? false,
  metadata: rest.metadata ?? {},
  applies_to: { fee_types: rest.applies_to?.fee_types ?? [], billable_metric_codes: rest.applies_to?.billable_metric_codes ?? [] },
});
const transactionOf = ({ _id, ...rest }: TransactionDoc): WalletTransaction => ({ ...rest, id: _id, metadata: rest.metadata ?? [] });

/** The fields of a wallet a client may change (its balances move only through the ledger). */
export type WalletChanges = Partial<Pick<Wallet,
  "name" | "code" | "priority" | "expiration_at" | "invoice_requires_successful_payment" | "paid_top_up_min_amount_cents"
  | "paid_top_up_max_amount_cents" | "applies_to" | "metadata" | "purchase_order_number">>;

export interface TransactionFilter {
  status?: string;
  transaction_status?: string;
  transaction_type?: string;
}

/** Wallets and their transactions; every query is scoped to one organization. */
export class WalletRepository {
  constructor(readonly models: Models) {}

  /** "duplicate" when the customer already has a wallet with that code. */
  async insert(wallet: Wallet): Promise<"ok" | "duplicate"> {
    const { id, ...rest } = wallet;
    try {
      await this.models.wallets.collection.insertOne({ _id: id, ...rest, code_key: wallet.code ?? id } as never);
      return "ok";
    } catch (err) {
      if (isDuplicateKeyError(err)) return "duplicate";
      throw err;
    }
  }

  /** By id (an `_id` read, fast on the test server too), in its organization only. */
  async find(organizationId: string, id: string): Promise<Wallet | null> {
    const doc = await this.models.wallets.findById(id).lean<WalletDoc>();
    return doc && doc.organization_id === organizationId ? walletOf(doc) : null;
  }

  /** Newest first, `_id` as tiebreaker; by external customer id when given. */
  async list(organizationId: string, externalCustomerId: string | undefined, page: PageRequest): Promise<{ items: Wallet[]; total: number }> {
    const query: Record<string, unknown> = { organization_id: organizationId };
    if (externalCustomerId !== undefined) query.external_customer_id = externalCustomerId;
    const [docs, total] = await Promise.all([
      this.models.wallets.find(query).sort({ created_at: -1, _id: -1 }).skip(skipOf(page)).limit(page.perPage).lean<WalletDoc[]>(),
      this.models.wallets.countDocuments(query),
    ]);
    return { items: docs.map(walletOf), total };
  }

  /**
   * A customer's active wallets with a balance, by priority then creation (the order prepaid
   * credits are taken in). By customer and status: an index on real MongoDB, a scan on the test server.
   */
  async activeOfCustomer(organizationId: string, customerId: string): Promise<Wallet[]> {
    const docs = await this.models.wallets
      .find({ organization_id: organizationId, customer_id: customerId, status: "active", balance_cents: { $gt: 0 } })
      .sort({ priority: 1, created_at: 1, _id: 1 })
      .lean<WalletDoc[]>();
    return docs.map(walletOf);
  }

  /**
   * Active wallets whose expiration has come: one sandbox organization's (a test clock's step),
   * or every ordinary organization's (the scheduler). An index on real MongoDB, a scan on the test server.
   */
  async dueExpirations(now: Date, organizationId?: string, limit = 500): Promise<Wallet[]> {
    const scope = organizationId ? { organization_id: organizationId } : { sandbox: { $ne: true } };
    const docs = await this.models.wallets.find({ status: "active", expiration_at: { $ne: null, $lte: now }, ...scope })
      .sort({ expiration_at: 1, _id: 1 }).limit(limit).lean<WalletDoc[]>();
    return docs.map(walletOf);
  }

  /** The first expiration of an organization's active wallets strictly after `after`, or null. */
  async nextExpirationAfter(organizationId: string, after: Date): Promise<Date | null> {
    const doc = await this.models.wallets.findOne({ organization_id: organizationId, status: "active", expiration_at: { $gt: after } }, { expiration_at: 1 })
      .sort({ expiration_at: 1 }).lean<{ expiration_at: Date }>();
    return doc?.expiration_at ?? null;
  }

  /** Changes client-set fields of an active wallet; "duplicate" on a code the customer's other wallet has; "terminated" when it is no more. */
  async change(wallet: Wallet, changes: WalletChanges, now: Date): Promise<"ok" | "duplicate" | "terminated"> {
    const set: Record<string, unknown> = { ...changes, updated_at: now };
    if ("code" in changes) set.code_key = changes.code ?? wallet.id;
    try {
      const res = await this.models.wallets.collection.updateOne({ _id: wallet.id, status: "active" } as never, { $set: set });
      return res.matchedCount === 1 ? "ok" : "terminated";
    } catch (err) {
      if (isDuplicateKeyError(err)) return "duplicate";
      throw err;
    }
  }

  /** Stores transactions once: a transaction already there (a retry) is left as it is. */
  async insertTransactions(transactions: readonly WalletTransaction[]): Promise<void> {
    if (transactions.length === 0) return;
    try {
      await this.models.transactions.collection.insertMany(transactions.map(({ id, ...rest }) => ({ _id: id, ...rest })) as never, { ordered: false });
    } catch (err) {
      const writeErrors = (err as { writeErrors?: Array<{ code?: number }> }).writeErrors;
      if (!isDuplicateKeyError(err) && !(writeErrors && writeErrors.every((e) => e.code === 11000))) throw err;
    }
  }

  /** Records a purchase's credit invoice on its transaction. */
  async setInvoice(transactionId: string, invoiceId: string): Promise<void> {
    await this.models.transactions.collection.updateOne({ _id: transactionId } as never, { $set: { invoice_id: invoiceId } });
  }

  /** A pending transaction that will never settle (its invoice could not be made, or was not paid) fails, once. */
  async failPending(transactionId: string, failure: string, now: Date): Promise<void> {
    await this.models.transactions.collection.updateOne(
      { _id: transactionId, sequence: null, status: "pending" } as never,
      { $set: { status: "failed", failure, failed_at: now } },
    );
  }

  async findTransaction(organizationId: string, id: string): Promise<WalletTransaction | null> {
    const doc = await this.models.transactions.findById(id).lean<TransactionDoc>();
    return doc && doc.organization_id === organizationId ? transactionOf(doc) : null;
  }

  async transactionsByIds(ids: readonly string[]): Promise<WalletTransaction[]> {
    const docs = await this.models.transactions.find({ _id: { $in: ids } }).lean<TransactionDoc[]>();
    const byId = new Map(docs.map((d) => [d._id, transactionOf(d)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** A wallet's transactions, newest first; a termination that found nothing left to void is not shown. */
  async listTransactions(organizationId: string, walletId: string, filter: TransactionFilter, page: PageRequest) {
    const query: Record<string, unknown> = { organization_id: organizationId, wallet_id: walletId, amount_cents: { $gt: 0 } };
    for (const key of ["status", "transaction_status", "transaction_type"] as const) if (filter[key]) query[key] = filter[key];
    const [docs, total] = await Promise.all([
      this.models.transactions.find(query).sort({ created_at: -1, _id: -1 }).skip(skipOf(page)).limit(page.perPage).lean<TransactionDoc[]>(),
      this.models.transactions.countDocuments(query),
    ]);
    return { items: docs.map(transactionOf), total };
  }

  /** The sum of a wallet's applied transactions, from the ledger alone (what its balance must equal). */
  async ledgerSum(walletId: string): Promise<{ balance_cents: number; applied: number }> {
    const docs = await this.models.transactions.find({ wallet_id: walletId, sequence: { $ne: null } }, { transaction_type: 1, amount_cents: 1 })
      .lean<Array<Pick<TransactionDoc, "transaction_type" | "amount_cents">>>();
    return {
      balance_cents: docs.reduce((sum, d) => sum + (d.transaction_type === "inbound" ? d.amount_cents : -d.amount_cents), 0),
      applied: docs.length,
    };
  }
}
