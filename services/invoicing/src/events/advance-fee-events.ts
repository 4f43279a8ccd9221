import { derivedUuid, Subjects, type Envelope } from "@billing/bus";
import { ADVANCE_FEES_PER_EVENT, domainEvent, type EventDataInput } from "@billing/contracts";
import { decimalString } from "@billing/pricing";
import type { AdvanceFeeRecord } from "../domain/advance-fees";

/** A stored pay-in-advance fee as its announcement shows it (Lago's FeeObject, as GET /fees/{id}). */
type FeeView = EventDataInput<typeof Subjects.invoicing.advanceFeesCreated>["fees"][number];

function feeView(record: AdvanceFeeRecord): FeeView {
  const fee = record.fee;
  return {
    svc_id: record.id,
    svc_invoice_id: record.invoice_id,
    fee_type: fee.fee_type,
    item_code: fee.item.code,
    item_name: fee.item.name,
    svc_subscription_id: record.subscription_id,
    external_subscription_id: record.external_subscription_id,
    svc_customer_id: record.customer_id,
    external_customer_id: record.external_customer_id,
    svc_charge_id: fee.charge_id,
    svc_fixed_charge_id: null,
    billable_metric_code: record.billable_metric_code,
    amount_cents: fee.amount_cents,
    amount_currency: record.currency,
    precise_amount_cents: decimalString(fee.precise_amount_cents),
    precise_coupons_amount_cents: fee.precise_coupons_amount_cents,
    taxes_amount_cents: fee.taxes_amount_cents,
    total_amount_cents: fee.total_amount_cents,
    units: fee.units,
    events_count: fee.events_count,
    pay_in_advance: true,
    invoiceable: fee.invoiceable,
    from_date: fee.from ? new Date(fee.from).toISOString() : null,
    to_date: fee.to ? new Date(fee.to).toISOString() : null,
    created_at: record.created_at.toISOString(),
    event_transaction_id: record.event_transaction_id,
    payment_status: record.payment_status,
  };
}

/**
 * billing.invoicing.advance_fees.created: the fees one write stored (one usage envelope's, or one
 * billing's recurring fees), in messages of up to ADVANCE_FEES_PER_EVENT fees. `key` names the
 * write: envelope ids derive from it and the chunk, so the same fees announced again (a
 * redelivery, the relay) are the same messages, dropped by the stream's deduplication. One
 * message per write rather than per fee: the publication, the stream and the webhook fan-out
 * handle a few hundred messages for a burst of 100,000 fees.
 */
export function advanceFeesEvents(key: string, records: readonly AdvanceFeeRecord[], at: Date): Envelope[] {
  const events: Envelope[] = [];
  for (let from = 0, chunk = 0; from < records.length; from += ADVANCE_FEES_PER_EVENT, chunk++) {
    const part = records.slice(from, from + ADVANCE_FEES_PER_EVENT);
    events.push(
      domainEvent(Subjects.invoicing.advanceFeesCreated, {
        organizationId: part[0]!.organization_id,
        id: derivedUuid(`advance_fees.created|${key}|${chunk}`),
        occurredAt: at,
        data: { fees: part.map(feeView) },
      }),
    );
  }
  return events;
}
