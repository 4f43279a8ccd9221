import { centsToCredits, currencyExponent, fromCents, ongoingBalanceCents } from "@billing/pricing";
import {
  appliedSectionViews,
  chosenSectionIdsOf,
  sectionChoiceInputOf,
  type CatalogMessages,
  type WalletMessages as M,
} from "@billing/contracts";
import { AppError } from "@billing/errors";
import { instantOf as instant } from "@billing/grpc";
import type { RecurringRule, RecurringRuleInput } from "../domain/recurring-rules";
import type { TransactionInput, WalletInput } from "../domain/wallet-input";
import type { OwnSections, Wallet, WalletTransaction } from "../domain/wallet";

const iso = (d: Date | null) => (d ? d.toISOString() : undefined);

/** The live sections resources chose, by id (what their views show of each). */
export type SectionLookup = ReadonlyMap<string, CatalogMessages.InvoiceCustomSection__Output>;
const NO_LOOKUP: SectionLookup = new Map();

/** The section ids wallets (their rules included) or transactions chose: one lookup for a page of them. */
export function chosenSectionIds(
  resources: ReadonlyArray<OwnSections & { recurring_rules?: readonly OwnSections[] }>,
): string[] {
  return [
    ...new Set(
      resources.flatMap((r) => [...chosenSectionIdsOf(r), ...(r.recurring_rules ?? []).flatMap(chosenSectionIdsOf)]),
    ),
  ];
}

/** A resource's skip flag and its live chosen sections (a deleted one is not shown). */
const appliedSections = (r: OwnSections, lookup: SectionLookup) => ({
  skip_invoice_custom_sections: r.skip_invoice_custom_sections ?? false,
  applied_invoice_custom_sections: appliedSectionViews(r.invoice_custom_sections, (id) => lookup.get(id)),
});

const keyValues = (list: M.KeyValue__Output[]) => list.map((kv) => ({ key: kv.key, value: kv.value ?? null }));

/** The proto WalletInput as the use cases take it: absent stays undefined, a sent null is null. */
export function walletInputOf(m: M.WalletInput__Output | null): WalletInput {
  if (!m) throw AppError.badRequest("param is missing or the value is empty: wallet");
  const input: WalletInput = {};
  const take = <K extends keyof WalletInput>(key: K, value: WalletInput[K] | undefined) => {
    if (value !== undefined) input[key] = value;
  };
  take("external_customer_id", m.external_customer_id ?? undefined);
  take("rate_amount", m.rate_amount ?? undefined);
  take("currency", m.currency ?? undefined);
  take("name", m.has_name ? (m.name ?? null) : undefined);
  take("code", m.has_code ? (m.code ?? null) : undefined);
  take("priority", m.priority ?? undefined);
  take(
    "expiration_at",
    m.has_expiration_at ? (m.expiration_at ? instant(m.expiration_at, "expiration_at") : null) : undefined,
  );
  take("invoice_requires_successful_payment", m.invoice_requires_successful_payment ?? undefined);
  take("paid_credits", m.paid_credits ?? undefined);
  take("granted_credits", m.granted_credits ?? undefined);
  take(
    "paid_top_up_min_amount_cents",
    m.has_paid_top_up_min_amount_cents ? (m.paid_top_up_min_amount_cents ?? null) : undefined,
  );
  take(
    "paid_top_up_max_amount_cents",
    m.has_paid_top_up_max_amount_cents ? (m.paid_top_up_max_amount_cents ?? null) : undefined,
  );
  take(
    "applies_to",
    m.applies_to
      ? { fee_types: m.applies_to.fee_types, billable_metric_codes: m.applies_to.billable_metric_codes }
      : undefined,
  );
  take("metadata", m.has_metadata ? Object.fromEntries(m.metadata.map((kv) => [kv.key, kv.value ?? null])) : undefined);
  take("transaction_metadata", m.transaction_metadata.length ? keyValues(m.transaction_metadata) : undefined);
  take("transaction_name", m.transaction_name ?? undefined);
  take("ignore_paid_top_up_limits_on_creation", m.ignore_paid_top_up_limits_on_creation ?? undefined);
  take("billing_entity_code", m.billing_entity_code ?? undefined);
  take("purchase_order_number", m.has_purchase_order_number ? (m.purchase_order_number ?? null) : undefined);
  take(
    "recurring_transaction_rules",
    m.has_recurring_transaction_rules ? m.recurring_transaction_rules.map(ruleInputOf) : undefined,
  );
  take("invoice_custom_section", sectionChoiceInputOf(m.invoice_custom_section));
  return input;
}

function ruleInputOf(r: M.RecurringRuleInput__Output): RecurringRuleInput {
  const rule: RecurringRuleInput = {};
  for (const key of [
    "svc_id",
    "trigger",
    "interval",
    "method",
    "paid_credits",
    "granted_credits",
    "target_ongoing_balance",
    "threshold_credits",
    "transaction_name",
  ] as const) {
    const value = r[key];
    if (value !== undefined && value !== null) rule[key] = value;
  }
  for (const key of [
    "invoice_requires_successful_payment",
    "grants_target_top_up",
    "ignore_paid_top_up_limits",
  ] as const) {
    const value = r[key];
    if (value !== undefined && value !== null) rule[key] = value;
  }
  if (r.started_at) rule.started_at = instant(r.started_at, "recurring_transaction_rules");
  if (r.expiration_at) rule.expiration_at = instant(r.expiration_at, "recurring_transaction_rules");
  if (r.transaction_metadata.length) rule.transaction_metadata = keyValues(r.transaction_metadata);
  const sections = sectionChoiceInputOf(r.invoice_custom_section);
  if (sections) rule.invoice_custom_section = sections;
  return rule;
}

/** Lago's WalletRecurringTransactionRule. */
function ruleMessage(r: RecurringRule, lookup: SectionLookup): M.RecurringRule {
  return {
    ...appliedSections(r, lookup),
    svc_id: r.id,
    trigger: r.trigger,
    interval: r.interval ?? "",
    threshold_credits: r.threshold_credits ?? undefined,
    method: r.method,
    status: r.status,
    paid_credits: r.paid_credits,
    granted_credits: r.granted_credits,
    target_ongoing_balance: r.target_ongoing_balance ?? undefined,
    started_at: iso(r.started_at),
    expiration_at: iso(r.expiration_at),
    invoice_requires_successful_payment: r.invoice_requires_successful_payment,
    transaction_metadata: r.transaction_metadata.map((kv) => ({ key: kv.key, value: kv.value ?? undefined })),
    transaction_name: r.transaction_name ?? undefined,
    grants_target_top_up: r.grants_target_top_up,
    ignore_paid_top_up_limits: r.ignore_paid_top_up_limits,
    created_at: r.created_at.toISOString(),
    next_due_at: iso(r.next_due_at),
  };
}

export function transactionInputOf(m: M.WalletTransactionInput__Output | null): TransactionInput {
  if (!m) throw AppError.badRequest("param is missing or the value is empty: wallet_transaction");
  return {
    wallet_id: m.wallet_id,
    paid_credits: m.paid_credits ?? undefined,
    granted_credits: m.granted_credits ?? undefined,
    voided_credits: m.voided_credits ?? undefined,
    name: m.name ?? undefined,
    invoice_requires_successful_payment: m.invoice_requires_successful_payment ?? undefined,
    ignore_paid_top_up_limits: m.ignore_paid_top_up_limits ?? undefined,
    metadata: keyValues(m.metadata),
    invoice_custom_section: sectionChoiceInputOf(m.invoice_custom_section),
  };
}

/** Credits as the pricing library derives them from cents at the wallet's rate. */
const creditsOf = (w: Pick<Wallet, "rate_amount" | "currency">, cents: number) =>
  centsToCredits(cents, w.rate_amount, w.currency);

/** Lago's WalletObject: its ongoing balance is its balance less its share of the customer's ongoing usage. */
export function walletMessage(w: Wallet, lookup: SectionLookup = NO_LOOKUP): M.Wallet {
  const credits = creditsOf(w, w.balance_cents);
  return {
    ...appliedSections(w, lookup),
    svc_id: w.id,
    svc_customer_id: w.customer_id,
    external_customer_id: w.external_customer_id,
    billing_entity_code: w.billing_entity_code,
    status: w.status,
    currency: w.currency,
    name: w.name ?? undefined,
    code: w.code ?? undefined,
    priority: w.priority,
    rate_amount: w.rate_amount,
    credits_balance: credits,
    balance_cents: w.balance_cents,
    consumed_credits: creditsOf(w, w.consumed_amount_cents),
    consumed_amount_cents: w.consumed_amount_cents,
    created_at: w.created_at.toISOString(),
    expiration_at: iso(w.expiration_at),
    last_balance_sync_at: iso(w.last_balance_sync_at),
    last_consumed_credit_at: iso(w.last_consumed_credit_at),
    terminated_at: iso(w.terminated_at),
    invoice_requires_successful_payment: w.invoice_requires_successful_payment,
    ongoing_balance_cents: ongoingBalanceCents(w.balance_cents, w.ongoing_usage_cents),
    ongoing_usage_balance_cents: w.ongoing_usage_cents,
    credits_ongoing_balance: creditsOf(w, ongoingBalanceCents(w.balance_cents, w.ongoing_usage_cents)),
    credits_ongoing_usage_balance: creditsOf(w, w.ongoing_usage_cents),
    paid_top_up_min_amount_cents: w.paid_top_up_min_amount_cents ?? undefined,
    paid_top_up_max_amount_cents: w.paid_top_up_max_amount_cents ?? undefined,
    applies_to: w.applies_to,
    metadata: Object.entries(w.metadata).map(([key, value]) => ({ key, value: value ?? undefined })),
    ledger_sequence: w.ledger.seq,
    purchase_order_number: w.purchase_order_number ?? undefined,
    recurring_transaction_rules: w.recurring_rules.map((r) => ruleMessage(r, lookup)),
  };
}

/** Lago's WalletTransactionObject: money and credits both derived from the cents by the pricing library. */
export function transactionMessage(
  tx: WalletTransaction,
  wallet: Pick<Wallet, "rate_amount" | "currency" | "priority">,
  lookup: SectionLookup = NO_LOOKUP,
): M.WalletTransaction {
  return {
    ...appliedSections(tx, lookup),
    svc_id: tx.id,
    svc_wallet_id: tx.wallet_id,
    svc_invoice_id: tx.invoice_id ?? undefined,
    status: tx.status,
    source: tx.source,
    transaction_status: tx.transaction_status,
    transaction_type: tx.transaction_type,
    amount: fromCents(tx.amount_cents, wallet.currency).toFixed(currencyExponent(wallet.currency)),
    credit_amount: creditsOf(wallet, tx.amount_cents),
    priority: wallet.priority,
    invoice_requires_successful_payment: tx.invoice_requires_successful_payment,
    settled_at: iso(tx.settled_at),
    failed_at: iso(tx.failed_at),
    created_at: tx.created_at.toISOString(),
    metadata: tx.metadata.map((kv) => ({ key: kv.key, value: kv.value ?? undefined })),
    name: tx.name ?? undefined,
    sequence: tx.sequence ?? 0,
    amount_cents: tx.amount_cents,
    svc_voided_invoice_id: tx.voided_invoice_id ?? undefined,
    svc_credit_note_id: tx.credit_note_id ?? undefined,
  };
}
