import { documentFormat } from "./format";
import { filterLines } from "./fee-details";
import { labelsFor } from "./labels";
import { DocumentCanvas } from "./layout";
import type { CreditNoteDocument } from "./views";

/**
 * A credit note's PDF: heading (number, the invoice it credits, date), issuer and customer, the
 * reason, one row per item (the fee credited: its units, the fee's amount, the amount credited),
 * then the subtotal, coupons adjustment, taxes per rate, what is credited, refunded and offset,
 * and the total. The same view gives the same bytes.
 */
export async function renderCreditNotePdf(note: CreditNoteDocument): Promise<Buffer> {
  const l = labelsFor(note.locale);
  const f = documentFormat(note.locale, note.currency);
  const c = new DocumentCanvas({
    title: `${l.credit_note} ${note.number}`,
    author: note.issuer.name,
    subject: l.credit_note,
    dated_at: note.dated_at,
  });

  c.heading(l.credit_note, note.issuer, [
    [l.number, note.number],
    [l.invoice_number, note.invoice_number],
    [l.issuing_date, f.date(note.issuing_date)],
  ]);
  c.parties(
    l.from,
    note.issuer,
    l.bill_to,
    note.customer,
    { tax_id: l.tax_id, legal_number: l.legal_number },
    note.customer.external_id,
  );
  c.paragraph(l.reason, [note.reason, note.description].filter(Boolean).join(" · "));

  c.startTable({ item: l.item, units: l.units, unitPrice: l.amount, amount: l.credited_column });
  for (const item of note.items) {
    const fee = item.fee;
    const details = [
      ...(fee.from && fee.to ? [l.period(f.date(fee.from), f.date(fee.to))] : []),
      ...filterLines(fee, l),
    ];
    c.row(fee.name, details, f.quantity(fee.units), f.money(fee.amount_cents), f.money(item.amount_cents));
  }
  c.endTable();

  c.total(l.sub_total_excl_taxes, f.money(note.sub_total_excluding_taxes_amount_cents), { bold: true });
  if (note.coupons_adjustment_amount_cents !== 0)
    c.total(l.coupons_adjustment, f.money(-note.coupons_adjustment_amount_cents));
  if (note.applied_taxes.length === 0) c.total(l.no_tax, f.money(0));
  for (const tax of note.applied_taxes)
    c.total(l.tax(tax.name, f.quantity(tax.rate), f.money(tax.base_amount_cents)), f.money(tax.amount_cents));
  if (note.credit_amount_cents !== 0) c.total(l.credited, f.money(note.credit_amount_cents));
  if (note.refund_amount_cents !== 0) c.total(l.refunded, f.money(note.refund_amount_cents));
  if (note.offset_amount_cents) c.total(l.offset, f.money(note.offset_amount_cents));
  c.total(l.total_credited, f.money(note.total_amount_cents), { bold: true });
  c.y += 14;
  if (note.footer) c.paragraph(null, note.footer);
  return c.finish(l.page);
}
