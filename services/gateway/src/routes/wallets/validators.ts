import { z } from "zod";
import { currencyCode, mandatoryOrInvalid } from "../../http/fields";
import { invoiceCustomSectionChoice } from "../invoice-custom-sections/choice";

/** A decimal sent as a string or a number, kept as the client wrote it: the wallet service judges it (Lago's invalid_* codes). */
const decimalText = z
  .union([z.string(), z.number()], { error: mandatoryOrInvalid })
  .transform((v) => (typeof v === "number" ? String(v) : v.trim()));
const instant = z.string().refine((v) => !Number.isNaN(Date.parse(v)) && /^\d{4}-\d{2}-\d{2}T/.test(v), "invalid_date");
const cents = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const keyValues = z
  .array(z.object({ key: z.string().min(1).max(100), value: z.string().max(255).nullable() }))
  .max(100);

/** One recurring transaction rule (the wallet service checks what it means). */
const ruleSchema = z.object({
  svc_id: z.string().max(255).nullish(),
  trigger: z.string().max(50).nullish(),
  interval: z.string().max(50).nullish(),
  method: z.string().max(50).nullish(),
  paid_credits: decimalText.nullish(),
  granted_credits: decimalText.nullish(),
  target_ongoing_balance: decimalText.nullish(),
  threshold_credits: decimalText.nullish(),
  started_at: instant.nullish(),
  expiration_at: instant.nullish(),
  invoice_requires_successful_payment: z.boolean().nullish(),
  transaction_metadata: keyValues.nullish(),
  transaction_name: z.string().max(255).nullish(),
  grants_target_top_up: z.boolean().nullish(),
  ignore_paid_top_up_limits: z.boolean().nullish(),
  invoice_custom_section: invoiceCustomSectionChoice.nullish(),
});

/** The `wallet` object of POST and PUT /wallets: types here, rules (rate, priority, limits, currency) in the wallet service. */
export const walletSchema = z.object({
  external_customer_id: z.string().trim().min(1).max(255).optional(),
  rate_amount: decimalText.optional(),
  currency: currencyCode.optional,
  name: z.string().max(255).nullish(),
  code: z.string().max(255).nullish(),
  priority: z.number().int().optional(),
  expiration_at: instant.nullish(),
  invoice_requires_successful_payment: z.boolean().optional(),
  paid_credits: decimalText.nullish(),
  granted_credits: decimalText.nullish(),
  paid_top_up_min_amount_cents: cents.nullish(),
  paid_top_up_max_amount_cents: cents.nullish(),
  ignore_paid_top_up_limits_on_creation: z.boolean().optional(),
  applies_to: z
    .object({ fee_types: z.array(z.string()).optional(), billable_metric_codes: z.array(z.string()).optional() })
    .nullish(),
  metadata: z.record(z.string().max(100), z.string().max(255).nullable()).nullish(),
  transaction_metadata: keyValues.nullish(),
  transaction_name: z.string().max(255).nullish(),
  billing_entity_code: z.string().max(255).optional(),
  purchase_order_number: z.string().max(255).nullish(),
  recurring_transaction_rules: z.array(ruleSchema).max(10).nullish(),
  invoice_custom_section: invoiceCustomSectionChoice.nullish(),
});

export type WalletBody = z.infer<typeof walletSchema>;

/** The `wallet` object of POST /wallets: the customer, the rate and the currency are required. */
export const walletCreateSchema = walletSchema.extend({
  external_customer_id: z.string({ error: mandatoryOrInvalid }).trim().min(1).max(255),
  rate_amount: decimalText,
  currency: currencyCode.required,
});

/** The `wallet_transaction` object of POST /wallet_transactions. */
export const walletTransactionSchema = z.object({
  wallet_id: z.string({ error: mandatoryOrInvalid }).min(1).max(255),
  paid_credits: decimalText.nullish(),
  granted_credits: decimalText.nullish(),
  voided_credits: decimalText.nullish(),
  name: z.string().max(255).nullish(),
  invoice_requires_successful_payment: z.boolean().optional(),
  ignore_paid_top_up_limits: z.boolean().optional(),
  metadata: keyValues.nullish(),
  invoice_custom_section: invoiceCustomSectionChoice.nullish(),
});

export type WalletTransactionBody = z.infer<typeof walletTransactionSchema>;
