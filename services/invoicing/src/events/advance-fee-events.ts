import { derivedUuid, Subjects, type Envelope } from "@billing/bus";
import { domainEvent } from "@billing/contracts";
import { decimalString } from "@billing/pricing";
import type { AdvanceFeeRecord } from "../domain/advance-fees";

/** billing.invoicing.advance_fee.created: a waiting pay-in-advance fee (its envelope id derived from the fee: announced once). */
export function advanceFeeEvent(record: AdvanceFeeRecord, at: Date): Envelope {
  const fee = record.fee;
  return domainEvent(Subjects.invoicing.advanceFeeCreated, {
    organizationId: record.organization_id,
    id: derivedUuid(`advance_fee.created|${record.id}`),
    occurredAt: at,
    data: {
      fee: {
        svc_id: record.id, svc_invoice_id: record.invoice_id, fee_type: fee.fee_type, item_code: fee.item.code, item_name: fee.item.name,
        svc_subscription_id: record.subscription_id, external_subscription_id: record.external_subscription_id,
        svc_customer_id: record.customer_id, external_customer_id: record.external_customer_id,
        svc_charge_id: fee.charge_id, svc_fixed_charge_id: null, billable_metric_code: record.billable_metric_code,
        amount_cents: fee.amount_cents, amount_currency: record.currency, precise_amount_cents: decimalString(fee.precise_amount_cents),
        precise_coupons_amount_cents: fee.precise_coupons_amount_cents, taxes_amount_cents: fee.taxes_amount_cents,
        total_amount_cents: fee.total_amount_cents, units: fee.units, events_count: fee.events_count, pay_in_advance: true,
        invoiceable: fee.invoiceable, from_date: fee.from ? new Date(fee.from).toISOString() : null, to_date: fee.to ? new Date(fee.to).toISOString() : null,
        created_at: record.created_at.toISOString(), event_transaction_id: record.event_transaction_id, payment_status: record.payment_status,
      },
    },
  });
}
