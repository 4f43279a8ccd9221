import { INVARIANTS, type Breach, type CheckContext, type CheckOutcome, type Invariant } from "./breach";
import type { OrganizationRecords } from "./documents";
import { checkCouponConsumption } from "./checks/coupon-consumption";
import { checkCreditNoteRefunds } from "./checks/credit-note-refunds";
import { checkInvoiceNumbering } from "./checks/invoice-numbering";
import { checkInvoicePayments } from "./checks/invoice-payments";
import { checkInvoiceTotals } from "./checks/invoice-totals";
import { checkProviderAttempts } from "./checks/provider-attempts";
import { checkTopUpSettlement } from "./checks/top-up-settlement";
import { checkWalletLedgers } from "./checks/wallet-ledger";
import { databaseNames, StoredRecords, type ServiceDatabase } from "./read";

/** The grace period by default: records changed less than a minute ago may still have work under way. */
export const DEFAULT_GRACE_MS = 60_000;

export type ReconcileScope = { organizationId: string; all?: false } | { all: true; organizationId?: undefined };

export type ReconcileOptions = ReconcileScope & {
  mongoUrl: string;
  /** databases are `<dbPrefix>_<service>` (default `billing`, the services' default MONGO_DB) */
  dbPrefix?: string;
  /** a service whose MONGO_DB is not `<dbPrefix>_<service>` */
  databases?: Partial<Record<ServiceDatabase, string>>;
  /** records changed less than this long before `now` are not judged where asynchronous work may be under way (default 60 s) */
  graceMs?: number;
  /** the run's reference time (system time by default) */
  now?: Date;
};

export interface ReconcileResult {
  /** the organizations checked */
  organizations: string[];
  /** per invariant, how many records were examined */
  checked: Record<Invariant, number>;
  /** per invariant, how many were left for the next run (changed within the grace period) */
  skipped: Record<Invariant, number>;
  breaches: Breach[];
}

const perInvariant = (): Record<Invariant, number> =>
  Object.fromEntries(INVARIANTS.map((i) => [i, 0])) as Record<Invariant, number>;

/** Every check over one organization's records. Pure: documents in, breaches out. */
export function reconcileRecords(ctx: CheckContext, r: OrganizationRecords): Record<Invariant, CheckOutcome> {
  return {
    wallet_ledger: checkWalletLedgers(ctx, r.wallets, r.transactions),
    invoice_totals: checkInvoiceTotals(ctx, r.invoices, r.creditNotes, r.transactions),
    invoice_payments: checkInvoicePayments(ctx, r.invoices, r.payments),
    coupon_consumption: checkCouponConsumption(ctx, r.appliedCoupons, r.coupons, r.invoices),
    invoice_numbering: checkInvoiceNumbering(ctx, r.invoices, r.counters),
    provider_payment_attempt: checkProviderAttempts(ctx, r.invoices, r.payments, r.customers),
    credit_note_refund: checkCreditNoteRefunds(ctx, r.creditNotes, r.refunds, r.payments),
    top_up_settlement: checkTopUpSettlement(ctx, r.invoices, r.transactions),
  };
}

/**
 * Checks every money invariant over the stored records of one organization, or of all of them
 * one at a time, reading each service's database directly and changing nothing.
 */
export async function reconcile(options: ReconcileOptions): Promise<ReconcileResult> {
  const names = databaseNames(options.dbPrefix || "billing", options.databases);
  const store = await StoredRecords.open(options.mongoUrl, names);
  const result: ReconcileResult = { organizations: [], checked: perInvariant(), skipped: perInvariant(), breaches: [] };
  try {
    const now = options.now ?? new Date();
    const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
    const organizations = options.all ? await store.organizationIds() : [options.organizationId];
    for (const organizationId of organizations) {
      const outcomes = reconcileRecords({ organizationId, now, graceMs }, await store.ofOrganization(organizationId));
      result.organizations.push(organizationId);
      for (const invariant of INVARIANTS) {
        result.checked[invariant] += outcomes[invariant].checked;
        result.skipped[invariant] += outcomes[invariant].skipped;
        result.breaches.push(...outcomes[invariant].breaches);
      }
    }
    return result;
  } finally {
    await store.close();
  }
}
