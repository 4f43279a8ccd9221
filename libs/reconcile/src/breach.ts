/** The money invariants reconciliation checks, one check each (checks/*.ts says what each covers). */
export const INVARIANTS = [
  "wallet_ledger",
  "invoice_totals",
  "invoice_payments",
  "coupon_consumption",
  "invoice_numbering",
  "provider_payment_attempt",
  "credit_note_refund",
  "top_up_settlement",
] as const;
export type Invariant = (typeof INVARIANTS)[number];

/** The kinds of stored records a breach names (each a document of one service's database). */
export type RecordType =
  | "wallet"
  | "wallet_transaction"
  | "invoice"
  | "fee"
  | "credit_note"
  | "invoice_counter"
  | "payment"
  | "refund"
  | "applied_coupon"
  | "customer";

/** A field of a record as a breach shows it (ids, amounts, statuses, instants as ISO strings). */
export type FieldValue = string | number | boolean | null;

/** One record involved in a breach: where it lives and the fields that matter to the breach. */
export interface BreachRecord {
  type: RecordType;
  id: string;
  fields: Record<string, FieldValue>;
}

/** One broken invariant: what was expected, what is stored, and the records involved. */
export interface Breach {
  invariant: Invariant;
  organization_id: string;
  /** a short stable code of the rule broken (e.g. `balance_mismatch`), for alerting and tests */
  code: string;
  message: string;
  /** the figures compared, when the rule compares amounts or counts */
  expected?: FieldValue;
  actual?: FieldValue;
  records: BreachRecord[];
}

/** What one check found over one organization's records. */
export interface CheckOutcome {
  /** how many records (wallets, invoices, …) the check examined */
  checked: number;
  /** how many it left alone because they changed within the grace period (work possibly still under way) */
  skipped: number;
  breaches: Breach[];
}

/** What every check is told besides the records: the reference time and the grace period. */
export interface CheckContext {
  organizationId: string;
  /** system time of the run */
  now: Date;
  /** records changed less than this long before `now` are not judged where work on them may still be under way */
  graceMs: number;
}

/** Whether a record changed within the grace period (so asynchronous work on it may still be under way). */
export const isRecent = (ctx: CheckContext, at: Date | null | undefined): boolean =>
  at instanceof Date && at.getTime() > ctx.now.getTime() - ctx.graceMs;

/** Collects one check's outcome. */
export class Findings {
  checked = 0;
  skipped = 0;
  readonly breaches: Breach[] = [];

  constructor(
    private readonly invariant: Invariant,
    private readonly ctx: CheckContext,
  ) {}

  breach(
    code: string,
    message: string,
    records: BreachRecord[],
    figures: { expected?: FieldValue; actual?: FieldValue } = {},
  ): void {
    this.breaches.push({
      invariant: this.invariant,
      organization_id: this.ctx.organizationId,
      code,
      message,
      ...figures,
      records,
    });
  }

  outcome(): CheckOutcome {
    return { checked: this.checked, skipped: this.skipped, breaches: this.breaches };
  }
}

/** An instant as a breach shows it. */
export const iso = (at: Date | null | undefined): string | null => (at instanceof Date ? at.toISOString() : null);
