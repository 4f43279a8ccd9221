import type { Request } from "express";
import { pageQuery, stringParam } from "../../http/validation";
import { sectionChoiceMessage } from "../invoice-custom-sections/choice";
import type { WalletBody, WalletTransactionBody } from "./validators";

const sent = (body: object, key: string) => Object.prototype.hasOwnProperty.call(body, key);
const orUndefined = <T>(value: T | null | undefined) => (value === null ? undefined : value);

/** The proto WalletInput: `has_*` says a nullable field was sent (null clears it on update). */
export function toWalletMessage(body: WalletBody) {
  return {
    external_customer_id: body.external_customer_id,
    rate_amount: body.rate_amount,
    currency: body.currency?.toUpperCase(),
    name: orUndefined(body.name),
    has_name: sent(body, "name"),
    code: orUndefined(body.code),
    has_code: sent(body, "code"),
    priority: body.priority,
    expiration_at: orUndefined(body.expiration_at),
    has_expiration_at: sent(body, "expiration_at"),
    invoice_requires_successful_payment: body.invoice_requires_successful_payment,
    paid_credits: orUndefined(body.paid_credits),
    granted_credits: orUndefined(body.granted_credits),
    paid_top_up_min_amount_cents: orUndefined(body.paid_top_up_min_amount_cents),
    has_paid_top_up_min_amount_cents: sent(body, "paid_top_up_min_amount_cents"),
    paid_top_up_max_amount_cents: orUndefined(body.paid_top_up_max_amount_cents),
    has_paid_top_up_max_amount_cents: sent(body, "paid_top_up_max_amount_cents"),
    ignore_paid_top_up_limits_on_creation: body.ignore_paid_top_up_limits_on_creation,
    applies_to:
      body.applies_to === undefined
        ? undefined
        : {
            fee_types: body.applies_to?.fee_types ?? [],
            billable_metric_codes: body.applies_to?.billable_metric_codes ?? [],
          },
    metadata: Object.entries(body.metadata ?? {}).map(([key, value]) => ({ key, value: value ?? undefined })),
    has_metadata: body.metadata !== undefined && body.metadata !== null,
    transaction_metadata: (body.transaction_metadata ?? []).map(({ key, value }) => ({
      key,
      value: value ?? undefined,
    })),
    transaction_name: orUndefined(body.transaction_name),
    billing_entity_code: body.billing_entity_code,
    purchase_order_number: orUndefined(body.purchase_order_number),
    has_purchase_order_number: sent(body, "purchase_order_number"),
    recurring_transaction_rules: (body.recurring_transaction_rules ?? []).map(({ invoice_custom_section, ...rule }) => {
      const message: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(rule)) if (value !== null && value !== undefined) message[key] = value;
      message.transaction_metadata = (rule.transaction_metadata ?? []).map(({ key, value }) => ({
        key,
        value: value ?? undefined,
      }));
      message.invoice_custom_section = sectionChoiceMessage(invoice_custom_section);
      return message;
    }),
    has_recurring_transaction_rules:
      body.recurring_transaction_rules !== undefined && body.recurring_transaction_rules !== null,
    invoice_custom_section: sectionChoiceMessage(body.invoice_custom_section),
  };
}

export function toWalletTransactionMessage(body: WalletTransactionBody) {
  return {
    wallet_id: body.wallet_id,
    paid_credits: orUndefined(body.paid_credits),
    granted_credits: orUndefined(body.granted_credits),
    voided_credits: orUndefined(body.voided_credits),
    name: orUndefined(body.name),
    invoice_requires_successful_payment: body.invoice_requires_successful_payment,
    ignore_paid_top_up_limits: body.ignore_paid_top_up_limits,
    metadata: (body.metadata ?? []).map(({ key, value }) => ({ key, value: value ?? undefined })),
    invoice_custom_section: sectionChoiceMessage(body.invoice_custom_section),
  };
}

/** ListWalletTransactionsRequest's filters from the query. */
export function transactionFilters(req: Request) {
  return {
    page: pageQuery(req),
    status: stringParam(req.query.status),
    transaction_status: stringParam(req.query.transaction_status),
    transaction_type: stringParam(req.query.transaction_type),
  };
}
