import { derivedUuid, Subjects, type Envelope } from "@billing/bus";
import { domainEvent, type EventDataInput } from "@billing/contracts";
import { decimalString } from "@billing/pricing";
import type { Fee, Invoice } from "../domain/invoice";

const I = Subjects.invoicing;
type InvoiceSubject =
  | typeof I.invoiceCreated
  | typeof I.invoiceDrafted
  | typeof I.invoiceFinalized
  | typeof I.invoicePaymentStatusUpdated
  | typeof I.invoicePaymentOverdue
  | typeof I.invoiceVoided
  | typeof I.invoiceDeleted
  | typeof I.invoiceOneOffCreated
  | typeof I.invoiceGenerated;

function invoiceData(invoice: Invoice): EventDataInput<typeof I.invoiceCreated> {
  const a = invoice.amounts;
  return {
    invoice: {
      svc_id: invoice.id,
      number: invoice.number,
      status: invoice.status === "generating" ? "draft" : invoice.status,
      payment_status: invoice.payment_status,
      invoice_type: invoice.invoice_type,
      billing_entity_code: invoice.billing_entity_code,
      sequential_id: invoice.sequential_id,
      currency: invoice.currency,
      issuing_date: invoice.issuing_date,
      payment_due_date: invoice.payment_due_date,
      net_payment_term: invoice.net_payment_term,
      fees_amount_cents: a.fees_amount_cents,
      coupons_amount_cents: a.coupons_amount_cents,
      credit_notes_amount_cents: a.credit_notes_amount_cents,
      prepaid_credit_amount_cents: a.prepaid_credit_amount_cents,
      progressive_billing_credit_amount_cents: a.progressive_billing_credit_amount_cents,
      sub_total_excluding_taxes_amount_cents: a.sub_total_excluding_taxes_amount_cents,
      taxes_amount_cents: a.taxes_amount_cents,
      sub_total_including_taxes_amount_cents: a.sub_total_including_taxes_amount_cents,
      total_amount_cents: a.total_amount_cents,
      fees_count: invoice.fees.length,
      subscription_ids: [...new Set(invoice.lines.map((l) => l.subscription_id))],
      customer: { svc_id: invoice.customer_id, external_id: invoice.external_customer_id },
      svc_wallet_transaction_id: invoice.wallet_transaction_id ?? null,
      created_at: invoice.created_at.toISOString(),
      updated_at: invoice.updated_at.toISOString(),
    },
  };
}

function feeData(invoice: Invoice, fee: Fee): EventDataInput<typeof I.feeCreated> {
  return {
    fee: {
      svc_id: fee.id,
      svc_invoice_id: invoice.id,
      fee_type: fee.fee_type,
      item_code: fee.item.code,
      item_name: fee.item.name,
      svc_subscription_id: fee.subscription_id,
      external_subscription_id: fee.external_subscription_id,
      svc_customer_id: invoice.customer_id,
      external_customer_id: invoice.external_customer_id,
      svc_charge_id: fee.charge_id,
      svc_fixed_charge_id: fee.fixed_charge_id,
      billable_metric_code: fee.billable_metric_code,
      amount_cents: fee.amount_cents,
      amount_currency: invoice.currency,
      precise_amount_cents: decimalString(fee.precise_amount_cents),
      precise_coupons_amount_cents: fee.precise_coupons_amount_cents,
      taxes_amount_cents: fee.taxes_amount_cents,
      total_amount_cents: fee.total_amount_cents,
      units: fee.units,
      events_count: fee.events_count,
      pay_in_advance: fee.pay_in_advance,
      invoiceable: fee.invoiceable,
      from_date: fee.from?.toISOString() ?? null,
      to_date: fee.to?.toISOString() ?? null,
      created_at: invoice.updated_at.toISOString(),
    },
  };
}

const event = (subject: InvoiceSubject, invoice: Invoice, at: Date, id?: string) =>
  domainEvent(subject, { organizationId: invoice.organization_id, data: invoiceData(invoice), occurredAt: at, id });

/** A new invoice's events: `created` and `drafted` for a draft in its grace period; none yet for one being finalized at once. */
export function storedEvents(invoice: Invoice, at: Date): Envelope[] {
  return invoice.status === "draft" ? [event(I.invoiceCreated, invoice, at), event(I.invoiceDrafted, invoice, at)] : [];
}

/**
 * A finalization's events: `created` first when the invoice was never announced (no grace
 * period), then `finalized` and one `fee.created` per fee (not again for
 * the fees an advance_charges invoice gathers). A closed
 * (zero, skipped) invoice announces nothing.
 */
export function finalizedEvents(invoice: Invoice, wasDraft: boolean, at: Date): Envelope[] {
  if (invoice.status !== "finalized") return [];
  return [
    // a one-off invoice is announced as Lago's invoice.one_off_created instead of invoice.created
    ...(wasDraft
      ? []
      : [event(invoice.invoice_type === "one_off" ? I.invoiceOneOffCreated : I.invoiceCreated, invoice, at)]),
    event(I.invoiceFinalized, invoice, at),
    // an advance_charges invoice gathers fees announced when they were created (advance_fees.created)
    ...(invoice.invoice_type === "advance_charges" ? [] : invoice.fees).map((fee) =>
      domainEvent(I.feeCreated, {
        organizationId: invoice.organization_id,
        data: feeData(invoice, fee),
        occurredAt: at,
      }),
    ),
  ];
}

/** A finalized invoice's new payment status (Lago's invoice.payment_status_updated). */
export function paymentStatusEvents(invoice: Invoice, at: Date): Envelope[] {
  return [event(I.invoicePaymentStatusUpdated, invoice, at)];
}

/**
 * An unpaid invoice's payment due date has passed (Lago's invoice.payment_overdue): once per
 * invoice, so its id is derived from the invoice's (a republished copy is stored once).
 */
export function paymentOverdueEvents(invoice: Invoice, at: Date): Envelope[] {
  return [event(I.invoicePaymentOverdue, invoice, at, derivedUuid(`${invoice.id}|payment_overdue`))];
}

/** A voided invoice's event (Lago's invoice.voided). */
/** A draft deleted (Lago's invoice.deleted): once, by the write that deletes it. */
export const deletedEvents = (invoice: Invoice, at: Date): Envelope[] => [event(I.invoiceDeleted, invoice, at)];

/** Lago's invoice.generated: the invoice's PDF exists (its id derived from the invoice: announced once). */
export const generatedEvents = (invoice: Invoice, at: Date): Envelope[] => [
  event(I.invoiceGenerated, invoice, at, derivedUuid(`${invoice.id}|generated`)),
];

export const voidedEvents = (invoice: Invoice, at: Date): Envelope[] => [event(I.invoiceVoided, invoice, at)];
