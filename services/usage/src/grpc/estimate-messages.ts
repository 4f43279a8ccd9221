import {
  amountDetailsToProto,
  customerObjectOfText,
  filterValuesToProto,
  groupedByToProto,
  type UsageMessages,
} from "@billing/contracts";
import { AppError } from "@billing/errors";
import type { EstimateRequest } from "../use-cases/estimate/estimate-fees";
import type { FeeView } from "../use-cases/estimate/fee-view";

/** Proto ⇄ domain for EstimateFees. */

const invalidProperties = () => AppError.validation({ properties: ["value_is_invalid"] });

/** properties_json → the estimated event's properties (absent or null: none; not a JSON object: 422). */
function estimatedProperties(json: string | null | undefined): Record<string, unknown> {
  try {
    return customerObjectOfText(json);
  } catch {
    throw invalidProperties();
  }
}

/** An EstimateFeesRequest → the estimate asked for (no timestamp: now). */
export const estimateRequest = (r: UsageMessages.EstimateFeesRequest__Output): EstimateRequest => ({
  organizationId: r.organization_id,
  externalSubscriptionId: r.external_subscription_id,
  code: r.code,
  properties: estimatedProperties(r.properties_json),
  timestamp: r.timestamp_ms != null ? new Date(r.timestamp_ms) : undefined,
});

/** An estimated fee → the EstimatedFee message (Lago's FeeObject). */
export function estimatedFeeMessage(v: FeeView): UsageMessages.EstimatedFee {
  const opt = <T>(value: T | null | undefined) => value ?? undefined;
  return {
    invoice_display_name: opt(v.invoice_display_name),
    fee: {
      svc_charge_id: v.svc_charge_id,
      svc_subscription_id: v.svc_subscription_id,
      svc_customer_id: v.svc_customer_id,
      external_customer_id: v.external_customer_id,
      external_subscription_id: v.external_subscription_id,
      amount_cents: v.amount_cents,
      precise_amount: v.precise_amount,
      precise_total_amount: v.precise_total_amount,
      amount_currency: v.amount_currency,
      taxes_amount_cents: v.taxes_amount_cents,
      taxes_precise_amount: v.taxes_precise_amount,
      taxes_rate: v.taxes_rate,
      units: v.units,
      precise_unit_amount: v.precise_unit_amount,
      total_aggregated_units: v.total_aggregated_units,
      total_amount_cents: v.total_amount_cents,
      total_amount_currency: v.total_amount_currency,
      events_count: v.events_count,
      pay_in_advance: v.pay_in_advance,
      invoiceable: v.invoiceable,
      from_date: v.from_date,
      to_date: v.to_date,
      payment_status: v.payment_status,
      event_transaction_id: v.event_transaction_id,
      precise_coupons_amount_cents: v.precise_coupons_amount_cents,
      sub_total_excluding_taxes_amount_cents: v.sub_total_excluding_taxes_amount_cents,
      sub_total_excluding_taxes_precise_amount_cents: v.sub_total_excluding_taxes_precise_amount_cents,
      amount_details: amountDetailsToProto(v.amount_details),
      self_billed: v.self_billed,
      item: {
        type: v.item.type,
        code: v.item.code,
        name: v.item.name,
        description: opt(v.item.description),
        invoice_display_name: v.item.invoice_display_name,
        filter_invoice_display_name: opt(v.item.filter_invoice_display_name),
        filters: v.item.filters ? { values: filterValuesToProto(v.item.filters) } : null,
        svc_item_id: v.item.svc_item_id,
        item_type: v.item.item_type,
        grouped_by: groupedByToProto(v.item.grouped_by),
      },
      applied_taxes: v.applied_taxes.map((t) => ({
        svc_id: t.svc_id,
        svc_tax_id: opt(t.svc_tax_id),
        tax_name: t.tax_name,
        tax_code: t.tax_code,
        tax_rate: t.tax_rate,
        tax_description: opt(t.tax_description),
        amount_cents: t.amount_cents,
        amount_currency: t.amount_currency,
        created_at: t.created_at,
      })),
    },
  };
}

/** The fees → the EstimateFeesResponse. */
export const estimateReply = (fees: FeeView[]): UsageMessages.EstimateFeesResponse => ({
  fees: fees.map(estimatedFeeMessage),
});
