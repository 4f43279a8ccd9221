import { mongo } from "mongoose";
import type {
  AppliedCouponDoc,
  CouponDoc,
  CreditNoteDoc,
  CustomerDoc,
  InvoiceCounterDoc,
  InvoiceDoc,
  OrganizationDoc,
  OrganizationRecords,
  PaymentDoc,
  RefundDoc,
  WalletDoc,
  WalletTransactionDoc,
} from "./documents";

/** The services whose databases hold money (usage's events are priced into invoices, which are read instead). */
export const SERVICE_DATABASES = ["customer", "catalog", "invoicing", "wallet", "payment"] as const;
export type ServiceDatabase = (typeof SERVICE_DATABASES)[number];

/** Each service's database: `<prefix>_<service>` (the services' MONGO_DB default), unless named otherwise. */
export function databaseNames(
  prefix: string,
  overrides: Partial<Record<ServiceDatabase, string>> = {},
): Record<ServiceDatabase, string> {
  return Object.fromEntries(SERVICE_DATABASES.map((s) => [s, overrides[s] || `${prefix}_${s}`])) as Record<
    ServiceDatabase,
    string
  >;
}

/** Fields read (projections keep the outboxes, views and sections out of memory). */
const fields = (...names: string[]): Record<string, 1> => Object.fromEntries(names.map((n) => [n, 1]));
const WALLET_FIELDS = fields(
  "organization_id",
  "customer_id",
  "status",
  "currency",
  "rate_amount",
  "balance_cents",
  "consumed_amount_cents",
  "ledger",
  "created_at",
  "updated_at",
);
const TRANSACTION_FIELDS = fields(
  "organization_id",
  "wallet_id",
  "status",
  "transaction_status",
  "transaction_type",
  "amount_cents",
  "void_remaining",
  "invoice_id",
  "voided_invoice_id",
  "credit_note_id",
  "invoice_requires_successful_payment",
  "sequence",
  "failure",
  "created_at",
  "settled_at",
  "failed_at",
);
const INVOICE_FIELDS = fields(
  "organization_id",
  "customer_id",
  "billing_entity_code",
  "invoice_type",
  "status",
  "payment_status",
  "number",
  "sequential_id",
  "sequences",
  "total_paid_amount_cents",
  "applied_payments",
  "overpayments",
  "offset_amount_cents",
  "amounts",
  "credits",
  "progressive_credit.amount_cents",
  "wallet_transaction_id",
  "created_at",
  "updated_at",
  "fees.id",
  "fees.fee_type",
  "fees.amount_cents",
  "fees.precise_coupons_amount_cents",
  "fees.taxes_amount_cents",
  "fees.total_amount_cents",
  "fees.taxes.code",
  "fees.taxes.rate",
  "fees.applied_taxes",
);
const CREDIT_NOTE_FIELDS = fields(
  "organization_id",
  "customer_id",
  "invoice_id",
  "number",
  "credit_status",
  "refund_status",
  "total_amount_cents",
  "credit_amount_cents",
  "refund_amount_cents",
  "balance_amount_cents",
  "consumptions",
  "created_at",
  "updated_at",
);
const PAYMENT_FIELDS = fields(
  "organization_id",
  "invoice_id",
  "amount_cents",
  "type",
  "payment_status",
  "provider",
  "attempt",
  "applied",
  "overpaid_amount_cents",
  "overpayment_status",
  "reference",
  "created_at",
  "updated_at",
);
const REFUND_FIELDS = fields(
  "organization_id",
  "kind",
  "credit_note_id",
  "invoice_id",
  "payment_id",
  "amount_cents",
  "status",
  "applied",
  "created_at",
  "updated_at",
);
const APPLIED_COUPON_FIELDS = fields(
  "organization_id",
  "coupon_id",
  "customer_id",
  "status",
  "amount_cents",
  "amount_currency",
  "percentage_rate",
  "frequency",
  "frequency_duration",
  "amount_cents_remaining",
  "frequency_duration_remaining",
  "credits",
  "recredited_invoice_ids",
  "created_at",
  "updated_at",
);
const COUPON_FIELDS = fields("organization_id", "code", "coupon_type");
const CUSTOMER_FIELDS = fields(
  "organization_id",
  "external_id",
  "billing_configuration.payment_provider",
  "billing_configuration.payment_provider_code",
  "billing_configuration.provider_customer_id",
  "deleted_at",
);

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Read-only access to the services' databases over one client: each organization's money records
 * (every query names its organization; the invoice counters are keyed by it), and the list of
 * organizations. On real MongoDB the organization-scoped queries use the services' indexes; the
 * test server scans, which a reconciliation run allows.
 */
export class StoredRecords {
  private constructor(
    private readonly client: mongo.MongoClient,
    private readonly dbs: Record<ServiceDatabase, mongo.Db>,
  ) {}

  static async open(mongoUrl: string, names: Record<ServiceDatabase, string>): Promise<StoredRecords> {
    const client = new mongo.MongoClient(mongoUrl, { serverSelectionTimeoutMS: 10_000, appName: "billing-reconcile" });
    await client.connect();
    const dbs = Object.fromEntries(SERVICE_DATABASES.map((s) => [s, client.db(names[s])])) as Record<
      ServiceDatabase,
      mongo.Db
    >;
    return new StoredRecords(client, dbs);
  }

  close(): Promise<void> {
    return this.client.close();
  }

  /** Every organization that holds money records: the customer service's organizations, and any other organization id found on them. */
  async organizationIds(): Promise<string[]> {
    const [orgs, ...found] = await Promise.all([
      this.dbs.customer
        .collection<OrganizationDoc>("organizations")
        .find({}, { projection: { _id: 1 } })
        .toArray(),
      this.dbs.wallet.collection<WalletDoc>("wallets").distinct("organization_id"),
      this.dbs.invoicing.collection<InvoiceDoc>("invoices").distinct("organization_id"),
      this.dbs.payment.collection<PaymentDoc>("payments").distinct("organization_id"),
      this.dbs.catalog.collection<AppliedCouponDoc>("applied_coupons").distinct("organization_id"),
    ]);
    return [...new Set([...orgs.map((o) => o._id), ...found.flat().map(String)])].sort();
  }

  /** One organization's records, every collection the checks read. */
  async ofOrganization(organizationId: string): Promise<OrganizationRecords> {
    const org = { organization_id: organizationId };
    const { wallet, invoicing, payment, catalog, customer } = this.dbs;
    const [
      wallets,
      transactions,
      invoices,
      counters,
      creditNotes,
      payments,
      refunds,
      appliedCoupons,
      coupons,
      customers,
    ] = await Promise.all([
      wallet.collection<WalletDoc>("wallets").find(org, { projection: WALLET_FIELDS }).toArray(),
      wallet
        .collection<WalletTransactionDoc>("wallet_transactions")
        .find(org, { projection: TRANSACTION_FIELDS })
        .toArray(),
      invoicing.collection<InvoiceDoc>("invoices").find(org, { projection: INVOICE_FIELDS }).toArray(),
      invoicing
        .collection<InvoiceCounterDoc>("counters")
        .find({ _id: { $regex: `^(entity|customer):${escapeRegex(organizationId)}:` } })
        .toArray(),
      invoicing.collection<CreditNoteDoc>("credit_notes").find(org, { projection: CREDIT_NOTE_FIELDS }).toArray(),
      payment.collection<PaymentDoc>("payments").find(org, { projection: PAYMENT_FIELDS }).toArray(),
      payment.collection<RefundDoc>("refunds").find(org, { projection: REFUND_FIELDS }).toArray(),
      catalog
        .collection<AppliedCouponDoc>("applied_coupons")
        .find(org, { projection: APPLIED_COUPON_FIELDS })
        .toArray(),
      catalog.collection<CouponDoc>("coupons").find(org, { projection: COUPON_FIELDS }).toArray(),
      customer.collection<CustomerDoc>("customers").find(org, { projection: CUSTOMER_FIELDS }).toArray(),
    ]);
    return {
      wallets,
      transactions,
      invoices,
      counters,
      creditNotes,
      payments,
      refunds,
      appliedCoupons,
      coupons,
      customers,
    };
  }
}
