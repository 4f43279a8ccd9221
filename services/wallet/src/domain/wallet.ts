import { chosenSectionIdsOf, type AppliedSection } from "@billing/contracts";
import type { RecurringRule } from "./recurring-rules";

/** Lago's invoice custom sections of a resource (a wallet, its rule, a transaction): absent on documents written before them = none. */
export interface OwnSections {
  skip_invoice_custom_sections?: boolean;
  invoice_custom_sections?: AppliedSection[];
}

/** A wallet of prepaid credits (Lago's Wallet). Balances are in the wallet's currency's minor units. */
export interface Wallet extends OwnSections {
  id: string;
  organization_id: string;
  customer_id: string;
  external_customer_id: string;
  billing_entity_code: string;
  status: "active" | "terminated";
  currency: string;
  name: string | null;
  code: string | null;
  priority: number;
  /** money per credit, a decimal string */
  rate_amount: string;
  balance_cents: number;
  consumed_amount_cents: number;
  /** the ongoing usage (current-period usage, taxes included) this wallet is counted to pay; its ongoing balance is balance − this */
  ongoing_usage_cents: number;
  invoice_requires_successful_payment: boolean;
  paid_top_up_min_amount_cents: number | null;
  paid_top_up_max_amount_cents: number | null;
  applies_to: { fee_types: string[]; billable_metric_codes: string[] };
  metadata: Record<string, string | null>;
  purchase_order_number: string | null;
  expiration_at: Date | null;
  created_at: Date;
  updated_at: Date;
  terminated_at: Date | null;
  last_balance_sync_at: Date | null;
  last_consumed_credit_at: Date | null;
  ledger: LedgerHead;
  /** the rules that top it up on their own (one at most) */
  recurring_rules: RecurringRule[];
  /** created for a sandbox organization: its time-driven work (expiration) runs when its test clock moves, not on the system clock */
  sandbox: boolean;
}

/**
 * The wallet's ledger head: how many movements were applied, and the block of transactions its
 * last move decided (each with its sequence and amount, or its failure). The next move is a write
 * conditional on `seq` that names its own block; so every transaction is decided once, and a block
 * whose transactions were not all marked yet can be recognized and completed (billing-rules §6;
 * `../shared/design/mongo-compat.md` rule 3).
 */
export interface LedgerHead {
  seq: number;
  block: LedgerEntry[];
  /** the id of the move that wrote this head (absent before the first move) */
  move?: string;
}

/** One transaction's fate in a ledger move: applied with a sequence and an amount, or failed. */
export interface LedgerEntry {
  tx: string;
  seq: number | null;
  amount_cents: number;
  failure: string | null;
}

export type TransactionStatus = "pending" | "settled" | "failed";
export type TransactionKind = "purchased" | "granted" | "voided" | "invoiced";

/** A movement of a wallet (Lago's WalletTransaction). */
export interface WalletTransaction extends OwnSections {
  id: string;
  organization_id: string;
  wallet_id: string;
  status: TransactionStatus;
  source: "manual" | "interval" | "threshold";
  transaction_status: TransactionKind;
  transaction_type: "inbound" | "outbound";
  /** money in minor units, positive; its sign is the transaction's type */
  amount_cents: number;
  /** void everything left when applied (a wallet's termination): the amount is fixed then */
  void_remaining: boolean;
  invoice_id: string | null;
  /** a voided invoice's credits given back (Lago's voided_invoice_id): applied, it lowers the consumed credits too */
  voided_invoice_id?: string | null;
  /** the credit note that voided these credits (a refunded credit invoice) */
  credit_note_id?: string | null;
  invoice_requires_successful_payment: boolean;
  name: string | null;
  metadata: Array<{ key: string; value: string | null }>;
  /** its place in the wallet's ledger once applied; null while not applied */
  sequence: number | null;
  /** why it failed, when it did */
  failure: string | null;
  created_at: Date;
  settled_at: Date | null;
  failed_at: Date | null;
}

/**
 * The resource whose sections a purchase's credit invoice shows (Lago's
 * invoice_custom_section_resource): the transaction when it skips sections or chose some, else its
 * wallet when that does, else the transaction (which chose none: the customer's sections).
 */
export function sectionResourceOf(tx: OwnSections, wallet: OwnSections): { skip: boolean; section_ids: string[] } {
  const own = (r: OwnSections) =>
    r.skip_invoice_custom_sections === true || (r.invoice_custom_sections ?? []).length > 0;
  const r = own(tx) || !own(wallet) ? tx : wallet;
  return { skip: r.skip_invoice_custom_sections === true, section_ids: chosenSectionIdsOf(r) };
}

/** The signed change a transaction makes to its wallet's balance. */
export const balanceDelta = (tx: Pick<WalletTransaction, "transaction_type" | "amount_cents">) =>
  tx.transaction_type === "inbound" ? tx.amount_cents : -tx.amount_cents;
