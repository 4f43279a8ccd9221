import { PLAN_INTERVALS } from "@billing/codes";
import { z } from "zod";
import { appliedInvoiceCustomSectionObject } from "./catalog";
import { cents, currency, instant } from "./common";

/** The wallet service's objects: wallets (prepaid credits) and their transactions. */

const paymentMethod = z.object({ payment_method_type: z.string(), payment_method_id: z.string().nullable() });
const keyValue = z.object({ key: z.string(), value: z.string().nullable() });

export const walletObject = z
  .object({
    svc_id: z.string(),
    svc_customer_id: z.string(),
    external_customer_id: z.string(),
    billing_entity_code: z.string(),
    status: z.enum(["active", "terminated"]),
    currency,
    name: z.string().nullable(),
    code: z.string().nullable(),
    priority: z.number().int(),
    rate_amount: z.string().describe("the price of one credit, a decimal string"),
    credits_balance: z.string(),
    balance_cents: cents,
    consumed_credits: z.string(),
    created_at: instant,
    expiration_at: instant.nullable(),
    last_balance_sync_at: instant.nullable(),
    last_consumed_credit_at: instant.nullable(),
    terminated_at: instant.nullable(),
    invoice_requires_successful_payment: z.boolean(),
    applies_to: z.object({ fee_types: z.array(z.string()), billable_metric_codes: z.array(z.string()) }),
    recurring_transaction_rules: z.array(
      z.object({
        svc_id: z.string(),
        trigger: z.enum(["interval", "threshold"]),
        method: z.enum(["fixed", "target"]),
        interval: z.enum(PLAN_INTERVALS),
        status: z.enum(["active", "terminated"]),
        threshold_credits: z.string(),
        paid_credits: z.string(),
        granted_credits: z.string(),
        grants_target_top_up: z.boolean(),
        started_at: instant.nullable(),
        target_ongoing_balance: z.string().nullable(),
        created_at: instant,
        expiration_at: instant.nullable(),
        invoice_requires_successful_payment: z.boolean(),
        transaction_metadata: z.array(keyValue),
        transaction_name: z.string().nullable(),
        ignore_paid_top_up_limits: z.boolean(),
        applied_invoice_custom_sections: z.array(appliedInvoiceCustomSectionObject),
        payment_method: paymentMethod,
        purchase_order_number: z.string().nullable(),
      }),
    ),
    ongoing_balance_cents: cents,
    ongoing_usage_balance_cents: cents,
    credits_ongoing_balance: z.string(),
    credits_ongoing_usage_balance: z.string(),
    paid_top_up_min_amount_cents: cents.nullable(),
    paid_top_up_max_amount_cents: cents.nullable(),
    applied_invoice_custom_sections: z.array(appliedInvoiceCustomSectionObject),
    payment_method: paymentMethod,
    purchase_order_number: z.string().nullable(),
    metadata: z.record(z.string(), z.string().nullable()).nullable(),
  })
  .meta({
    id: "WalletObject",
    description: "A customer's wallet of prepaid credits, consumed by its finalized invoices.",
  });

export const walletTransactionObject = z
  .object({
    svc_id: z.string(),
    svc_wallet_id: z.string(),
    svc_invoice_id: z.string().nullable(),
    svc_credit_note_id: z.string().nullable(),
    svc_voided_invoice_id: z.string().nullable(),
    status: z.enum(["pending", "settled", "failed"]),
    source: z.enum(["manual", "interval", "threshold"]),
    transaction_status: z.enum(["purchased", "granted", "voided", "invoiced"]),
    transaction_type: z.enum(["inbound", "outbound"]),
    amount: z.string(),
    credit_amount: z.string(),
    remaining_amount_cents: cents.nullable(),
    remaining_credit_amount: z.string().nullable(),
    priority: z.number().int(),
    invoice_requires_successful_payment: z.boolean(),
    settled_at: instant.nullable(),
    failed_at: instant.nullable(),
    created_at: instant,
    metadata: z.array(keyValue),
    name: z.string().nullable(),
    applied_invoice_custom_sections: z.array(appliedInvoiceCustomSectionObject),
    payment_method: paymentMethod,
    purchase_order_number: z.string().nullable(),
  })
  .meta({
    id: "WalletTransactionObject",
    description: "Credits in (purchased, granted) or out (invoiced, voided) of a wallet.",
  });
