import type { CustomerMessages } from "@billing/contracts";
import type { CreditNoteDocument } from "@billing/documents";
import { localDateOf } from "@billing/pricing";
import type { CreditNote } from "./credit-note";
import type { Invoice } from "./invoice";
import { customerParty, documentLocale, issuerParty } from "./invoice-document";

type Customer = CustomerMessages.Customer__Output;
type BillingEntity = CustomerMessages.BillingEntity__Output;

/**
 * What a credit note's PDF shows, from the note as stored (its items, taxes and amounts as
 * issued), the fees it credits (read from its invoice: name, units, amount, period in the
 * customer's zone, filters, groups) and its parties as for an invoice. Dated at its issuing date,
 * so the same note always gives the same document. A fee missing from `invoice` (never expected:
 * a note's fees are its invoice's) shows its id.
 */
export function creditNoteDocument(
  note: CreditNote,
  invoice: Invoice | null,
  customer: Customer | null,
  entity: BillingEntity | null,
): CreditNoteDocument {
  const zone = note.customer.applicable_timezone || "UTC";
  const day = (d: Date | null) => (d ? localDateOf(d, zone) : null);
  const fees = new Map((invoice?.fees ?? []).map((f) => [f.id, f]));
  return {
    locale: documentLocale(customer, entity),
    currency: note.currency,
    number: note.number,
    invoice_number: note.invoice_number,
    issuing_date: note.issuing_date,
    dated_at: new Date(`${note.issuing_date}T00:00:00Z`),
    reason: note.reason,
    description: note.description,
    credit_status: note.credit_status,
    refund_status: note.refund_status,
    issuer: issuerParty(entity, note.billing_entity_code),
    customer: customerParty(customer, note.customer, note.external_customer_id),
    items: note.items.map((item) => {
      const fee = fees.get(item.fee_id);
      return {
        amount_cents: item.amount_cents,
        fee: fee
          ? {
              name: fee.item.invoice_display_name || fee.item.name,
              units: fee.units,
              amount_cents: fee.amount_cents,
              from: day(fee.from),
              to: day(fee.to),
              filters: fee.item.filters,
              grouped_by: fee.item.grouped_by,
            }
          : { name: item.fee_id, units: "0", amount_cents: 0 },
      };
    }),
    applied_taxes: note.applied_taxes.map((t) => ({
      name: t.tax_name,
      rate: t.tax_rate,
      base_amount_cents: t.base_amount_cents,
      amount_cents: t.amount_cents,
    })),
    sub_total_excluding_taxes_amount_cents: note.sub_total_excluding_taxes_amount_cents,
    coupons_adjustment_amount_cents: note.coupons_adjustment_amount_cents,
    taxes_amount_cents: note.taxes_amount_cents,
    credit_amount_cents: note.credit_amount_cents,
    refund_amount_cents: note.refund_amount_cents,
    offset_amount_cents: note.offset_amount_cents,
    total_amount_cents: note.total_amount_cents,
    footer: entity?.invoice_footer ?? null,
  };
}
