import { Schema, type Connection } from "mongoose";
import type { Envelope } from "@billing/bus";
import { docModel, type DocModel } from "@billing/mongo";
import type { Wallet, WalletTransaction } from "../domain/wallet";

/**
 * A stored wallet: the domain's fields with its id as `_id`, its `code_key`, and its embedded
 * outbox. Fields that wallets written by earlier versions lack are optional here; toWallet gives
 * them their defaults.
 */
export interface WalletDoc extends Omit<
  Wallet,
  "id" | "sandbox" | "ongoing_usage_cents" | "recurring_rules" | "metadata" | "applies_to"
> {
  _id: string;
  /** the wallet's code, or its id when it has none (unique per customer) */
  code_key: string;
  sandbox?: boolean;
  ongoing_usage_cents?: number;
  recurring_rules?: Wallet["recurring_rules"];
  metadata?: Wallet["metadata"];
  applies_to?: Partial<Wallet["applies_to"]>;
  outbox?: Envelope[];
}

/** A stored wallet transaction (the ledger): the domain's fields with its id as `_id`, and its embedded outbox. */
export interface TransactionDoc extends Omit<WalletTransaction, "id" | "metadata" | "sequence"> {
  _id: string;
  metadata?: WalletTransaction["metadata"];
  /** null (or absent, on transactions written by earlier versions) until the ledger applies it */
  sequence?: number | null;
  outbox?: Envelope[];
}

/** An organization that holds (or held) a wallet. */
export interface WalletOrganizationDoc {
  _id: string;
  at: Date;
}

/** A wallet as the domain sees it; wallets written by earlier versions get the defaults of fields added since. */
export const toWallet = ({ _id, code_key: _key, outbox: _outbox, ...rest }: WalletDoc): Wallet => ({
  ...rest,
  id: _id,
  sandbox: rest.sandbox ?? false,
  ongoing_usage_cents: rest.ongoing_usage_cents ?? 0,
  recurring_rules: rest.recurring_rules ?? [],
  metadata: rest.metadata ?? {},
  applies_to: {
    fee_types: rest.applies_to?.fee_types ?? [],
    billable_metric_codes: rest.applies_to?.billable_metric_codes ?? [],
  },
});

/** A wallet transaction as the domain sees it; transactions written by earlier versions get the defaults of fields added since. */
export const toTransaction = ({ _id, outbox: _outbox, ...rest }: TransactionDoc): WalletTransaction => ({
  ...rest,
  id: _id,
  metadata: rest.metadata ?? [],
  sequence: rest.sequence ?? null,
});

/** A new wallet as stored (its code_key derived), with the events its insertion announces. */
export const walletDocOf = ({ id, ...rest }: Wallet, outbox: Envelope[]): WalletDoc => ({
  _id: id,
  ...rest,
  code_key: rest.code ?? id,
  outbox,
});

/** A new transaction as stored, with the events its insertion announces. */
export const transactionDocOf = ({ id, ...rest }: WalletTransaction, outbox: Envelope[]): TransactionDoc => ({
  _id: id,
  ...rest,
  outbox,
});

/**
 * Wallets, keyed by their svc id. `code_key` is the wallet's code, or its id when it has none:
 * unique per customer, so two live wallets of a customer never share a code.
 */
const walletSchema = new Schema<WalletDoc>(
  {
    _id: String,
    organization_id: { type: String, required: true },
    customer_id: { type: String, required: true },
    external_customer_id: String,
    billing_entity_code: String,
    code_key: { type: String, required: true },
    status: String,
    currency: String,
    name: String,
    code: String,
    priority: Number,
    rate_amount: String,
    balance_cents: Number,
    consumed_amount_cents: Number,
    ongoing_usage_cents: Number,
    invoice_requires_successful_payment: Boolean,
    paid_top_up_min_amount_cents: Number,
    paid_top_up_max_amount_cents: Number,
    applies_to: { _id: false, fee_types: [String], billable_metric_codes: [String] },
    metadata: Schema.Types.Mixed,
    purchase_order_number: String,
    expiration_at: Date,
    created_at: Date,
    updated_at: Date,
    terminated_at: Date,
    last_balance_sync_at: Date,
    last_consumed_credit_at: Date,
    sandbox: Boolean,
    skip_invoice_custom_sections: Boolean,
    invoice_custom_sections: [Schema.Types.Mixed],
    recurring_rules: [Schema.Types.Mixed],
    outbox: [Schema.Types.Mixed],
    ledger: {
      _id: false,
      seq: Number,
      move: String,
      block: [{ _id: false, tx: String, seq: Number, amount_cents: Number, failure: String }],
    },
  },
  { versionKey: false, minimize: false, collection: "wallets" },
);
walletSchema.index({ organization_id: 1, customer_id: 1, code_key: 1 }, { unique: true });
// lists: newest first, by organization and by customer (real MongoDB; the test server scans)
walletSchema.index({ organization_id: 1, created_at: -1, _id: -1 });
walletSchema.index({ organization_id: 1, external_customer_id: 1, created_at: -1, _id: -1 });
// wallets whose expiration has come (the scheduler; a test clock's RunDue per organization)
walletSchema.index({ status: 1, expiration_at: 1 });
walletSchema.index({ status: 1, "recurring_rules.next_due_at": 1 });
walletSchema.index({ organization_id: 1, status: 1, expiration_at: 1 });
// a customer's active wallets, the order credits are taken in (invoicing's finalization)
walletSchema.index({ organization_id: 1, customer_id: 1, status: 1, priority: 1, created_at: 1 });

/**
 * Wallet transactions: the ledger. Append-only but for their status and `sequence`, which is set
 * once, when the transaction is decided (the wallet's ledger head names it first).
 * A transaction's id is its idempotency key: a retried request or movement finds it there.
 */
const transactionSchema = new Schema<TransactionDoc>(
  {
    _id: String,
    organization_id: { type: String, required: true },
    wallet_id: { type: String, required: true },
    status: String,
    source: String,
    transaction_status: String,
    transaction_type: String,
    amount_cents: Number,
    void_remaining: Boolean,
    invoice_id: String,
    voided_invoice_id: String,
    credit_note_id: String,
    invoice_requires_successful_payment: Boolean,
    name: String,
    metadata: [{ _id: false, key: String, value: String }],
    sequence: Number,
    failure: String,
    created_at: Date,
    settled_at: Date,
    failed_at: Date,
    skip_invoice_custom_sections: Boolean,
    invoice_custom_sections: [Schema.Types.Mixed],
    outbox: [Schema.Types.Mixed],
  },
  { versionKey: false, minimize: false, collection: "wallet_transactions" },
);
// a wallet's ledger in order, and its lists newest first (real MongoDB; the test server scans)
transactionSchema.index({ organization_id: 1, wallet_id: 1, sequence: 1 });
transactionSchema.index({ organization_id: 1, wallet_id: 1, created_at: -1, _id: -1 });
// an invoice's transactions (a void gives its credits back)
transactionSchema.index({ organization_id: 1, invoice_id: 1 });

/**
 * The organizations that hold (or held) a wallet, `_id` = organization id, marked before their first
 * wallet is stored: the ongoing-usage consumer skips the others' envelopes at one keyed read.
 */
const walletOrganizationSchema = new Schema<WalletOrganizationDoc>(
  { _id: String, at: Date },
  { versionKey: false, collection: "wallet_organizations" },
);

export interface Models {
  wallets: DocModel<WalletDoc>;
  transactions: DocModel<TransactionDoc>;
  walletOrganizations: DocModel<WalletOrganizationDoc>;
}

/** Registers the wallet service's models on its connection (initialized by the runtime). */
export function registerModels(connection: Connection): Models {
  return {
    wallets: docModel(connection, "Wallet", walletSchema),
    transactions: docModel(connection, "WalletTransaction", transactionSchema),
    walletOrganizations: docModel(connection, "WalletOrganization", walletOrganizationSchema),
  };
}
