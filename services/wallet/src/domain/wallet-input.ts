import type { SectionChoiceInput } from "@billing/contracts";
import type { RecurringRuleInput } from "./recurring-rules";

/** A wallet as a client describes it (create or update); absent fields are undefined, sent nulls are null. */
export interface WalletInput {
  external_customer_id?: string;
  rate_amount?: string;
  currency?: string;
  name?: string | null;
  code?: string | null;
  priority?: number;
  expiration_at?: Date | null;
  invoice_requires_successful_payment?: boolean;
  paid_credits?: string;
  granted_credits?: string;
  paid_top_up_min_amount_cents?: number | null;
  paid_top_up_max_amount_cents?: number | null;
  applies_to?: { fee_types: string[]; billable_metric_codes: string[] };
  metadata?: Record<string, string | null>;
  transaction_metadata?: Array<{ key: string; value: string | null }>;
  transaction_name?: string;
  ignore_paid_top_up_limits_on_creation?: boolean;
  billing_entity_code?: string;
  purchase_order_number?: string | null;
  recurring_transaction_rules?: RecurringRuleInput[];
  /** Lago's invoice_custom_section (codes not yet resolved; absent: no change) */
  invoice_custom_section?: SectionChoiceInput;
}

/** Credits a client moves in or out of a wallet (POST /wallet_transactions). */
export interface TransactionInput {
  wallet_id: string;
  paid_credits?: string;
  granted_credits?: string;
  voided_credits?: string;
  name?: string;
  invoice_requires_successful_payment?: boolean;
  ignore_paid_top_up_limits?: boolean;
  metadata?: Array<{ key: string; value: string | null }>;
  invoice_custom_section?: SectionChoiceInput;
}
