import type { FeeType } from "@billing/codes";
import type { Decimal, DecimalLike } from "../decimal";
import type { Instant } from "../periods/timezone";

export type { FeeType } from "@billing/codes";

export interface TaxInput {
  code: string;
  /** Percent: "20" = 20 %. */
  rate: DecimalLike;
  name?: string;
}

/** A fee of the invoice, already rounded to integer cents, with its applicable taxes already selected. */
export interface InvoiceFeeInput {
  id?: string;
  fee_type: FeeType;
  amount_cents: number;
  precise_amount_cents?: DecimalLike | null;
  billable_metric_code?: string | null;
  plan_code?: string | null;
  /** Matching keys for progressive-billing credits. */
  subscription_id?: string | null;
  charge_id?: string | null;
  charge_filter_id?: string | null;
  grouped_by?: Record<string, string | null> | null;
  taxes?: readonly TaxInput[];
}

export interface AppliedCouponInput {
  id: string;
  coupon_type: "fixed_amount" | "percentage";
  frequency: "once" | "recurring" | "forever";
  amount_cents?: number | null;
  /** once + fixed: what is left to consume. */
  amount_cents_remaining?: number | null;
  amount_currency?: string | null;
  percentage_rate?: DecimalLike | null;
  frequency_duration_remaining?: number | null;
  /** Coupon limited to billable metrics / plans (empty or absent = not limited). */
  billable_metric_codes?: readonly string[] | null;
  plan_codes?: readonly string[] | null;
  /** Application date: oldest first within a class. Default: list order. */
  created_at?: Instant | null;
}

export interface CreditNoteInput {
  id: string;
  balance_amount_cents: number;
  created_at?: Instant | null;
}

export interface WalletInput {
  id: string;
  balance_cents: number;
  /** 1 first, default 50. */
  priority?: number | null;
  created_at?: Instant | null;
  applies_to?: { fee_types?: readonly string[] | null; billable_metric_codes?: readonly string[] | null } | null;
}

export interface ProgressiveBillingCreditInput {
  /**
   * The subscription whose progressive invoice it is: the credit applies to that subscription's
   * charge fees only (an invoice billing several subscriptions takes one credit per subscription).
   * Absent: any charge fee of the same charges.
   */
  subscription_id?: string | null;
  /** The previous progressive invoice's fees − coupons − its own progressive credits − credit notes. */
  amount_cents: number;
  /** Its charge fees, matched to this invoice's fees by charge, filter and group. */
  previous_fees: readonly {
    charge_id: string;
    charge_filter_id?: string | null;
    grouped_by?: Record<string, string | null> | null;
    amount_cents: number;
  }[];
}

/** A fee while the invoice pipeline runs. */
export interface WorkingFee {
  input: InvoiceFeeInput;
  amountCents: Decimal;
  preciseAmountCents: Decimal;
  preciseCoupons: Decimal;
  preciseCreditNotes: Decimal;
  taxesAmountCents: number;
  taxesPreciseAmountCents: Decimal;
  taxesRate: Decimal;
  appliedTaxes: {
    tax_code: string;
    tax_name: string | null;
    tax_rate: string;
    amount_cents: number;
    precise_amount_cents: string;
  }[];
}
