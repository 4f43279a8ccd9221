import type { Envelope } from "@billing/bus";
import {
  isDuplicateKeyError,
  OrganizationMarks,
  skipOf,
  type DocFields,
  type Filter,
  type PageRequest,
  type Projection,
  type Update,
} from "@billing/mongo";
import { ongoingBalanceCents, sumCents } from "@billing/pricing";
import { transactionEvent, walletEvent } from "../events/wallet-events";
import { balanceDelta, type Wallet, type WalletTransaction } from "../domain/wallet";
import {
  toTransaction,
  toWallet,
  transactionDocOf,
  walletDocOf,
  type Models,
  type TransactionDoc,
  type WalletDoc,
} from "./models";

/** Reads leave the embedded outboxes out. */
export const NO_OUTBOX = { outbox: 0 } as const satisfies Projection<WalletDoc> & Projection<TransactionDoc>;

/** Publishes events already written into a document's outbox (the relay republishes what this misses). */
export interface WalletPublisher {
  /** by wallet id */
  wallets(events: ReadonlyMap<string, readonly Envelope[]>): Promise<void>;
  /** by transaction id */
  transactions(events: ReadonlyMap<string, readonly Envelope[]>): Promise<void>;
}
export const NO_PUBLISHER: WalletPublisher = { wallets: async () => undefined, transactions: async () => undefined };

/** The fields of a wallet a client may change (its balances move only through the ledger). */
export type WalletChanges = Partial<
  Pick<
    Wallet,
    | "name"
    | "code"
    | "priority"
    | "expiration_at"
    | "invoice_requires_successful_payment"
    | "paid_top_up_min_amount_cents"
    | "paid_top_up_max_amount_cents"
    | "applies_to"
    | "metadata"
    | "purchase_order_number"
    | "recurring_rules"
    | "skip_invoice_custom_sections"
    | "invoice_custom_sections"
  >
>;

export interface TransactionFilter {
  status?: string;
  transaction_status?: string;
  transaction_type?: string;
}

/** Wallets and their transactions; every query is scoped to one organization. */
/** Why a purchase may have failed that its invoice, paid after all, undoes (the wallet's own refusals, a terminated wallet, stay). */
const REVIVABLE_FAILURES = ["payment_failed", "invoice_not_created"];

export class WalletRepository {
  /** the organizations holding (or having held) a wallet: marked before their first one is stored */
  private readonly holders: OrganizationMarks;

  constructor(
    readonly models: Models,
    private readonly publish: WalletPublisher = NO_PUBLISHER,
  ) {
    this.holders = new OrganizationMarks(models.walletOrganizations.collection);
  }

  /** "duplicate" when the customer already has a wallet with that code. Announces wallet.created. */
  async insert(wallet: Wallet): Promise<"ok" | "duplicate"> {
    const id = wallet.id;
    const events = [walletEvent("billing.wallet.wallet.created", wallet, wallet.created_at)];
    await this.holders.mark(wallet.organization_id, wallet.created_at);
    try {
      await this.models.wallets.collection.insertOne(walletDocOf(wallet, events));
      await this.publish.wallets(new Map([[id, events]]));
      return "ok";
    } catch (err) {
      if (isDuplicateKeyError(err)) return "duplicate";
      throw err;
    }
  }

  /** By id (an `_id` read, fast on the test server too), in its organization only. */
  async find(organizationId: string, id: string): Promise<Wallet | null> {
    const doc = await this.models.wallets.findById(id, NO_OUTBOX).lean<WalletDoc>();
    return doc && doc.organization_id === organizationId ? toWallet(doc) : null;
  }

  /** Newest first, `_id` as tiebreaker; by external customer id when given. */
  async list(
    organizationId: string,
    externalCustomerId: string | undefined,
    page: PageRequest,
  ): Promise<{ items: Wallet[]; total: number }> {
    const query: Filter<WalletDoc> = { organization_id: organizationId };
    if (externalCustomerId !== undefined) query.external_customer_id = externalCustomerId;
    const [docs, total] = await Promise.all([
      this.models.wallets
        .find(query, NO_OUTBOX)
        .sort({ created_at: -1, _id: -1 })
        .skip(skipOf(page))
        .limit(page.perPage)
        .lean<WalletDoc[]>(),
      this.models.wallets.countDocuments(query),
    ]);
    return { items: docs.map(toWallet), total };
  }

  /** What a wallet's purchases waiting for their payment will bring (cents): a threshold rule counts them as on their way. */
  async pendingPurchasedCents(walletId: string): Promise<number> {
    const docs = await this.models.transactions
      .find({ wallet_id: walletId, status: "pending", transaction_status: "purchased" }, { amount_cents: 1 })
      .lean<Array<{ amount_cents: number }>>();
    return sumCents(docs.map((d) => d.amount_cents));
  }

  /** Whether the organization holds (or held) a wallet: one `_id` read of its mark, none once seen. */
  holdsWallets(organizationId: string): Promise<boolean> {
    return this.holders.has(organizationId);
  }

  /** Marks the organizations whose wallets were stored before marks existed (once per database). */
  async markHolders(now: Date): Promise<void> {
    await this.holders.backfill(async () => (await this.models.wallets.distinct("organization_id")).map(String), now);
  }

  /** The customers of an organization that hold an active wallet (by organization and status: an index on real MongoDB, a scan on the test server). */
  async customersWithWallets(organizationId: string): Promise<string[]> {
    return this.models.wallets.distinct("customer_id", { organization_id: organizationId, status: "active" });
  }

  /**
   * A customer's active wallets, by priority then creation: the order prepaid credits are taken
   * in, and ongoing usage spread. By customer and status: an index on real MongoDB, a scan on the test server.
   */
  async activeOfCustomer(organizationId: string, customerId: string): Promise<Wallet[]> {
    return (await this.activeOfCustomers(organizationId, [customerId])).get(customerId) ?? [];
  }

  /** The same for several customers, in one query (by customer: those without an active wallet are absent). */
  async activeOfCustomers(organizationId: string, customerIds: readonly string[]): Promise<Map<string, Wallet[]>> {
    const docs = await this.models.wallets
      .find({ organization_id: organizationId, customer_id: { $in: customerIds }, status: "active" }, NO_OUTBOX)
      .sort({ priority: 1, created_at: 1, _id: 1 })
      .lean<WalletDoc[]>();
    const byCustomer = new Map<string, Wallet[]>();
    for (const wallet of docs.map(toWallet))
      byCustomer.set(wallet.customer_id, [...(byCustomer.get(wallet.customer_id) ?? []), wallet]);
    return byCustomer;
  }

  /**
   * A wallet's share of its customer's ongoing usage. When its ongoing balance falls to zero or
   * below by it, wallet.depleted_ongoing_balance is announced by the same write (once per fall:
   * the write is conditional on the share it replaces).
   */
  async setOngoingUsage(wallet: Wallet, usageCents: number, now: Date): Promise<void> {
    if (usageCents === wallet.ongoing_usage_cents) return;
    const before = ongoingBalanceCents(wallet.balance_cents, wallet.ongoing_usage_cents);
    const after = ongoingBalanceCents(wallet.balance_cents, usageCents);
    const events =
      before > 0 && after <= 0
        ? [
            walletEvent(
              "billing.wallet.wallet.depleted_ongoing_balance",
              { ...wallet, ongoing_usage_cents: usageCents, updated_at: now },
              now,
            ),
          ]
        : [];
    const update: Update<WalletDoc> = {
      $set: { ongoing_usage_cents: usageCents },
      ...(events.length ? { $push: { outbox: { $each: events } } } : {}),
    };
    const res = await this.models.wallets.collection.updateOne(
      { _id: wallet.id, ongoing_usage_cents: wallet.ongoing_usage_cents },
      update,
    );
    if (res.modifiedCount === 1 && events.length) await this.publish.wallets(new Map([[wallet.id, events]]));
  }

  /**
   * Active wallets whose expiration has come: one sandbox organization's (a test clock's step),
   * or every ordinary organization's (the scheduler). An index on real MongoDB, a scan on the test server.
   */
  async dueExpirations(now: Date, organizationId?: string, limit = 500): Promise<Wallet[]> {
    const scope: Filter<WalletDoc> = organizationId ? { organization_id: organizationId } : { sandbox: { $ne: true } };
    const docs = await this.models.wallets
      .find({ status: "active", expiration_at: { $ne: null, $lte: now }, ...scope }, NO_OUTBOX)
      .sort({ expiration_at: 1, _id: 1 })
      .limit(limit)
      .lean<WalletDoc[]>();
    return docs.map(toWallet);
  }

  /**
   * Active wallets with a recurring rule due: one sandbox organization's, or every ordinary
   * organization's. An index on real MongoDB, a scan on the test server.
   */
  async dueRules(now: Date, organizationId?: string, limit = 500): Promise<Wallet[]> {
    const scope: Filter<WalletDoc> = organizationId ? { organization_id: organizationId } : { sandbox: { $ne: true } };
    const docs = await this.models.wallets
      .find({ status: "active", "recurring_rules.next_due_at": { $lte: now }, ...scope }, NO_OUTBOX)
      .sort({ _id: 1 })
      .limit(limit)
      .lean<WalletDoc[]>();
    return docs.map(toWallet);
  }

  /** The first firing of an organization's active wallets' rules strictly after `after`, or null. */
  async nextRuleAfter(organizationId: string, after: Date): Promise<Date | null> {
    const docs = await this.models.wallets
      .find(
        { organization_id: organizationId, status: "active", "recurring_rules.next_due_at": { $gt: after } },
        { recurring_rules: 1 },
      )
      .lean<Array<{ recurring_rules: Array<{ next_due_at: Date | null }> }>>();
    const times = docs
      .flatMap((d) => d.recurring_rules.map((r) => r.next_due_at?.getTime() ?? Infinity))
      .filter((t) => t > after.getTime() && t !== Infinity);
    return times.length ? new Date(Math.min(...times)) : null;
  }

  /** Moves the wallet's rule (one at most) past a firing, once: from `due` to its next time (null: it has ended). */
  async advanceRule(walletId: string, ruleId: string, due: Date, next: Date | null): Promise<void> {
    await this.models.wallets.collection.updateOne(
      { _id: walletId, "recurring_rules.0.id": ruleId, "recurring_rules.0.next_due_at": due },
      {
        $set: {
          "recurring_rules.0.next_due_at": next,
          ...(next ? {} : { "recurring_rules.0.status": "terminated" as const }),
        },
      },
    );
  }

  /** The first expiration of an organization's active wallets strictly after `after`, or null. */
  async nextExpirationAfter(organizationId: string, after: Date): Promise<Date | null> {
    const doc = await this.models.wallets
      .findOne(
        { organization_id: organizationId, status: "active", expiration_at: { $gt: after } },
        { expiration_at: 1 },
      )
      .sort({ expiration_at: 1 })
      .lean<{ expiration_at: Date }>();
    return doc?.expiration_at ?? null;
  }

  /** Changes client-set fields of an active wallet; "duplicate" on a code the customer's other wallet has; "terminated" when it is no more. */
  async change(wallet: Wallet, changes: WalletChanges, now: Date): Promise<"ok" | "duplicate" | "terminated"> {
    const set: DocFields<WalletDoc> = { ...changes, updated_at: now };
    if ("code" in changes) set.code_key = changes.code ?? wallet.id;
    const events = [walletEvent("billing.wallet.wallet.updated", { ...wallet, ...changes, updated_at: now }, now)];
    try {
      const res = await this.models.wallets.collection.updateOne(
        { _id: wallet.id, status: "active" },
        { $set: set, $push: { outbox: { $each: events } } },
      );
      if (res.matchedCount !== 1) return "terminated";
      await this.publish.wallets(new Map([[wallet.id, events]]));
      return "ok";
    } catch (err) {
      if (isDuplicateKeyError(err)) return "duplicate";
      throw err;
    }
  }

  /** Stores transactions once: a transaction already there (a retry) is left as it is. */
  async insertTransactions(transactions: readonly WalletTransaction[]): Promise<void> {
    if (transactions.length === 0) return;
    const events = new Map(
      transactions.map((tx) => [
        tx.id,
        [transactionEvent("billing.wallet.wallet_transaction.created", tx, tx.created_at)],
      ]),
    );
    try {
      await this.models.transactions.collection.insertMany(
        transactions.map((tx) => transactionDocOf(tx, events.get(tx.id)!)),
        { ordered: false },
      );
    } catch (err) {
      // duplicates only (isDuplicateKeyError covers a bulk insert's write errors too)
      if (!isDuplicateKeyError(err)) throw err;
    }
    // a retry's duplicate publishes the same message ids: JetStream keeps one
    await this.publish.transactions(events);
  }

  /** Records a purchase's credit invoice on its transaction. */
  async setInvoice(transactionId: string, invoiceId: string): Promise<void> {
    await this.models.transactions.collection.updateOne({ _id: transactionId }, { $set: { invoice_id: invoiceId } });
  }

  /** A pending transaction that will never settle (its invoice could not be made, or was not paid) fails, once. */
  async failPending(transactionId: string, failure: string, now: Date): Promise<void> {
    const doc = await this.models.transactions.findById(transactionId, NO_OUTBOX).lean<TransactionDoc>();
    if (!doc || doc.status !== "pending" || doc.sequence != null) return;
    const failed: WalletTransaction = { ...toTransaction(doc), status: "failed", failure, failed_at: now };
    const events = [transactionEvent("billing.wallet.wallet_transaction.updated", failed, now)];
    const res = await this.models.transactions.collection.updateOne(
      { _id: transactionId, sequence: null, status: "pending" },
      { $set: { status: "failed", failure, failed_at: now }, $push: { outbox: { $each: events } } },
    );
    if (res.modifiedCount === 1) await this.publish.transactions(new Map([[transactionId, events]]));
  }

  /**
   * A purchase that failed for want of its invoice's money — its payment failed, or its invoice
   * seemed not to be made (the call to invoicing passed its deadline, and invoicing made it later) —
   * is pending again once that invoice is paid after all: once, with its event, naming the invoice.
   * Answers whether it was revived (false: not such a failed purchase, or revived meanwhile).
   */
  async reviveForPaidInvoice(transactionId: string, invoiceId: string, now: Date): Promise<boolean> {
    const doc = await this.models.transactions.findById(transactionId, NO_OUTBOX).lean<TransactionDoc>();
    if (!doc || doc.status !== "failed" || !REVIVABLE_FAILURES.includes(doc.failure ?? "") || doc.sequence != null)
      return false;
    const revived: WalletTransaction = {
      ...toTransaction(doc),
      status: "pending",
      failure: null,
      failed_at: null,
      invoice_id: invoiceId,
    };
    const events = [transactionEvent("billing.wallet.wallet_transaction.updated", revived, now)];
    const res = await this.models.transactions.updateOne(
      { _id: transactionId, sequence: null, status: "failed", failure: { $in: REVIVABLE_FAILURES } },
      {
        $set: { status: "pending", failure: null, failed_at: null, invoice_id: invoiceId },
        $push: { outbox: { $each: events } },
      },
    );
    if (res.modifiedCount !== 1) return false;
    await this.publish.transactions(new Map([[transactionId, events]]));
    return true;
  }

  async findTransaction(organizationId: string, id: string): Promise<WalletTransaction | null> {
    const doc = await this.models.transactions.findById(id, NO_OUTBOX).lean<TransactionDoc>();
    return doc && doc.organization_id === organizationId ? toTransaction(doc) : null;
  }

  /** An invoice's transactions (real MongoDB: the organization_id+invoice_id index; the test server scans). */
  async transactionsOfInvoice(organizationId: string, invoiceId: string): Promise<WalletTransaction[]> {
    const docs = await this.models.transactions
      .find({ organization_id: organizationId, invoice_id: invoiceId }, NO_OUTBOX)
      .lean<TransactionDoc[]>();
    return docs.map(toTransaction);
  }

  async transactionsByIds(ids: readonly string[]): Promise<WalletTransaction[]> {
    const docs = await this.models.transactions.find({ _id: { $in: ids } }, NO_OUTBOX).lean<TransactionDoc[]>();
    const byId = new Map(docs.map((d) => [d._id, toTransaction(d)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** A wallet's transactions, newest first; a termination that found nothing left to void is not shown. */
  async listTransactions(organizationId: string, walletId: string, filter: TransactionFilter, page: PageRequest) {
    const query: Filter<TransactionDoc> = {
      organization_id: organizationId,
      wallet_id: walletId,
      amount_cents: { $gt: 0 },
    };
    // a client's values, as they came: one that is none of the stored values matches nothing
    if (filter.status) query.status = filter.status as TransactionDoc["status"];
    if (filter.transaction_status)
      query.transaction_status = filter.transaction_status as TransactionDoc["transaction_status"];
    if (filter.transaction_type) query.transaction_type = filter.transaction_type as TransactionDoc["transaction_type"];
    const [docs, total] = await Promise.all([
      this.models.transactions
        .find(query, NO_OUTBOX)
        .sort({ created_at: -1, _id: -1 })
        .skip(skipOf(page))
        .limit(page.perPage)
        .lean<TransactionDoc[]>(),
      this.models.transactions.countDocuments(query),
    ]);
    return { items: docs.map(toTransaction), total };
  }

  /** The sum of a wallet's applied transactions, from the ledger alone (what its balance must equal). */
  async ledgerSum(walletId: string): Promise<{ balance_cents: number; applied: number }> {
    const docs = await this.models.transactions
      .find({ wallet_id: walletId, sequence: { $ne: null } }, { transaction_type: 1, amount_cents: 1 })
      .lean<Array<Pick<TransactionDoc, "transaction_type" | "amount_cents">>>();
    return {
      balance_cents: sumCents(docs.map(balanceDelta)),
      applied: docs.length,
    };
  }
}
