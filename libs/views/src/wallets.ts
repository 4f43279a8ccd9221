import type { WalletMessages as M } from "@billing/contracts";
import { presentAppliedSections } from "./invoice-custom-sections";
import { or } from "./presenting";
import type { walletObject, walletTransactionObject, ViewOf } from "./schemas";

const metadataMap = (list: M.KeyValue__Output[]) => Object.fromEntries(list.map((kv) => [kv.key, kv.value ?? null]));

/** Lago's WalletObject (every key present, null where Lago sends null; `balance` is a document bug Lago's server no longer sends). */
export function presentWallet(w: M.Wallet__Output) {
  return {
    svc_id: w.svc_id,
    svc_customer_id: w.svc_customer_id,
    external_customer_id: w.external_customer_id,
    billing_entity_code: w.billing_entity_code,
    status: w.status,
    currency: w.currency,
    name: or(w.name),
    code: or(w.code),
    priority: w.priority,
    rate_amount: w.rate_amount,
    credits_balance: w.credits_balance,
    balance_cents: w.balance_cents,
    consumed_credits: w.consumed_credits,
    created_at: w.created_at,
    expiration_at: or(w.expiration_at),
    last_balance_sync_at: or(w.last_balance_sync_at),
    last_consumed_credit_at: or(w.last_consumed_credit_at),
    terminated_at: or(w.terminated_at),
    invoice_requires_successful_payment: w.invoice_requires_successful_payment,
    applies_to: {
      fee_types: w.applies_to?.fee_types ?? [],
      billable_metric_codes: w.applies_to?.billable_metric_codes ?? [],
    },
    recurring_transaction_rules: w.recurring_transaction_rules.map((r) => ({
      svc_id: r.svc_id,
      trigger: r.trigger,
      method: r.method,
      // a threshold rule has no interval: Lago's column default shows as weekly
      interval: r.interval || "weekly",
      status: r.status,
      // an interval rule has no threshold: Lago shows 0.0
      threshold_credits: r.threshold_credits ?? "0.0",
      paid_credits: r.paid_credits,
      granted_credits: r.granted_credits,
      grants_target_top_up: r.grants_target_top_up,
      started_at: or(r.started_at),
      target_ongoing_balance: or(r.target_ongoing_balance),
      created_at: r.created_at,
      expiration_at: or(r.expiration_at),
      invoice_requires_successful_payment: r.invoice_requires_successful_payment,
      transaction_metadata: r.transaction_metadata.map((kv) => ({ key: kv.key, value: kv.value ?? null })),
      transaction_name: or(r.transaction_name),
      ignore_paid_top_up_limits: r.ignore_paid_top_up_limits,
      applied_invoice_custom_sections: presentAppliedSections(r.applied_invoice_custom_sections),
      payment_method: { payment_method_type: "provider", payment_method_id: null },
      purchase_order_number: null,
    })),
    ongoing_balance_cents: w.ongoing_balance_cents,
    ongoing_usage_balance_cents: w.ongoing_usage_balance_cents,
    credits_ongoing_balance: w.credits_ongoing_balance,
    credits_ongoing_usage_balance: w.credits_ongoing_usage_balance,
    paid_top_up_min_amount_cents: or(w.paid_top_up_min_amount_cents),
    paid_top_up_max_amount_cents: or(w.paid_top_up_max_amount_cents),
    applied_invoice_custom_sections: presentAppliedSections(w.applied_invoice_custom_sections),
    payment_method: { payment_method_type: "provider", payment_method_id: null },
    purchase_order_number: or(w.purchase_order_number),
    metadata: w.metadata.length ? metadataMap(w.metadata) : null,
  } satisfies ViewOf<typeof walletObject>;
}

/** Lago's WalletTransactionObject. */
export function presentWalletTransaction(t: M.WalletTransaction__Output) {
  return {
    svc_id: t.svc_id,
    svc_wallet_id: t.svc_wallet_id,
    svc_invoice_id: or(t.svc_invoice_id),
    svc_credit_note_id: or(t.svc_credit_note_id),
    svc_voided_invoice_id: or(t.svc_voided_invoice_id),
    status: t.status,
    source: t.source,
    transaction_status: t.transaction_status,
    transaction_type: t.transaction_type,
    amount: t.amount,
    credit_amount: t.credit_amount,
    remaining_amount_cents: null,
    remaining_credit_amount: null,
    priority: t.priority,
    invoice_requires_successful_payment: t.invoice_requires_successful_payment,
    settled_at: or(t.settled_at),
    failed_at: or(t.failed_at),
    created_at: t.created_at,
    metadata: t.metadata.map((kv) => ({ key: kv.key, value: kv.value ?? null })),
    name: or(t.name),
    applied_invoice_custom_sections: presentAppliedSections(t.applied_invoice_custom_sections),
    payment_method: { payment_method_type: "provider", payment_method_id: null },
    purchase_order_number: null,
  } satisfies ViewOf<typeof walletTransactionObject>;
}
