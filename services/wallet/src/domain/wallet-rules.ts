import { creditsToCents, type CreditConversion } from "@billing/pricing";
import type { ErrorDetails } from "@billing/errors";
import { balanceDelta, type LedgerEntry, type Wallet, type WalletTransaction } from "./wallet";

/** A decimal credit amount as clients send it ("10", "10.5", 10.5), not negative. */
export function isCreditAmount(value: string | null | undefined): value is string {
  return typeof value === "string" && /^\d+(\.\d+)?$/.test(value.trim());
}

/** rate_amount: a positive decimal (money per credit). */
export function isRateAmount(value: string | null | undefined): value is string {
  return isCreditAmount(value) && Number(value) > 0;
}

export const PRIORITY = { min: 1, max: 50, default: 50 } as const;

/** The terms of a wallet a client may set, checked together (every problem reported at once). */
export interface WalletTerms {
  rate_amount: string;
  priority: number;
  expiration_at: Date | null;
  paid_top_up_min_amount_cents: number | null;
  paid_top_up_max_amount_cents: number | null;
  applies_to: { fee_types: string[]; billable_metric_codes: string[] };
}

const FEE_TYPES = ["charge", "subscription", "commitment", "fixed_charge"];

export function walletTermsViolations(terms: WalletTerms, now: Date): ErrorDetails {
  const errors: ErrorDetails = {};
  if (!isRateAmount(terms.rate_amount)) errors.rate_amount = ["invalid_rate_amount"];
  if (!Number.isInteger(terms.priority) || terms.priority < PRIORITY.min || terms.priority > PRIORITY.max)
    errors.priority = ["value_is_out_of_range"];
  if (terms.expiration_at && terms.expiration_at.getTime() <= now.getTime()) errors.expiration_at = ["invalid_date"];
  const { paid_top_up_min_amount_cents: min, paid_top_up_max_amount_cents: max } = terms;
  if (min !== null && min < 0) errors.paid_top_up_min_amount_cents = ["value_is_out_of_range"];
  if (max !== null && max < 0) errors.paid_top_up_max_amount_cents = ["value_is_out_of_range"];
  if (min !== null && max !== null && min > max)
    errors.paid_top_up_max_amount_cents = ["must_be_greater_than_or_equal_to_min"];
  if (terms.applies_to.fee_types.some((t) => !FEE_TYPES.includes(t))) errors.applies_to = ["invalid_fee_types"];
  return errors;
}

/** The credits of a top-up or void as money, or why they cannot be taken (field → codes). */
export function creditsViolations(
  field: "paid_credits" | "granted_credits" | "voided_credits",
  credits: string,
  wallet: Pick<Wallet, "rate_amount" | "currency" | "paid_top_up_min_amount_cents" | "paid_top_up_max_amount_cents">,
  options: { ignoreLimits?: boolean } = {},
): { conversion: CreditConversion | null; errors: string[] } {
  if (!isCreditAmount(credits)) return { conversion: null, errors: [`invalid_${field}`] };
  const conversion = creditsToCents(credits, wallet.rate_amount, wallet.currency);
  if (conversion.amount_cents === 0)
    return { conversion, errors: Number(credits) === 0 ? [] : ["amount_rounds_to_zero"] };
  if (field === "paid_credits" && !options.ignoreLimits) {
    const { paid_top_up_min_amount_cents: min, paid_top_up_max_amount_cents: max } = wallet;
    if (min !== null && conversion.amount_cents < min) return { conversion, errors: ["amount_below_minimum"] };
    if (max !== null && conversion.amount_cents > max) return { conversion, errors: ["amount_above_maximum"] };
  }
  return { conversion, errors: [] };
}

/**
 * What one ledger move does to its wallet, decided on the wallet as read (the conditional write
 * that stores it makes the decisions hold): each transaction in order either moves the balance
 * (a termination's void takes what is left, and ends the wallet) or fails, so the wallet never
 * goes below zero and a terminated wallet takes nothing more.
 */
export function decideBlock(
  wallet: Pick<Wallet, "status" | "balance_cents" | "consumed_amount_cents"> & { ledger: { seq: number } },
  transactions: ReadonlyArray<
    Pick<
      WalletTransaction,
      "id" | "transaction_type" | "transaction_status" | "amount_cents" | "void_remaining" | "voided_invoice_id"
    >
  >,
): { entries: LedgerEntry[]; balance_cents: number; consumed_amount_cents: number; terminated: boolean } {
  let balance = wallet.balance_cents;
  let consumed = wallet.consumed_amount_cents;
  let terminated = wallet.status === "terminated";
  let seq = wallet.ledger.seq;
  const entries = transactions.map((tx): LedgerEntry => {
    if (terminated) return { tx: tx.id, seq: null, amount_cents: tx.amount_cents, failure: "wallet_is_terminated" };
    const amount = tx.void_remaining ? balance : tx.amount_cents;
    const next = balance + balanceDelta({ transaction_type: tx.transaction_type, amount_cents: amount });
    if (next < 0) return { tx: tx.id, seq: null, amount_cents: tx.amount_cents, failure: "insufficient_credits" };
    balance = next;
    if (tx.transaction_status === "invoiced") consumed += amount;
    // a voided invoice's credits given back are no longer consumed (Lago's reset_consumed_credits)
    if (tx.voided_invoice_id && tx.transaction_type === "inbound") consumed = Math.max(0, consumed - amount);
    if (tx.void_remaining) terminated = true;
    return { tx: tx.id, seq: ++seq, amount_cents: amount, failure: null };
  });
  return { entries, balance_cents: balance, consumed_amount_cents: consumed, terminated };
}
