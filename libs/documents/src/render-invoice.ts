import { documentFormat } from "./format";
import { breakdownLines, filterLines } from "./fee-details";
import { labelsFor } from "./labels";
import { DocumentCanvas } from "./layout";
import type { InvoiceDocument } from "./views";

/**
 * An invoice's PDF: heading (issuer's logo, number, dates), issuer and customer, one row per fee
 * (units, unit price, amount; its period, filter, group and pricing detail under it), coupons,
 * the totals with taxes per rate, credit notes and prepaid credits, the custom sections, the
 * footer and page numbers. The same view gives the same bytes.
 */
export async function renderInvoicePdf(invoice: InvoiceDocument): Promise<Buffer> {
  const l = labelsFor(invoice.locale);
  const f = documentFormat(invoice.locale, invoice.currency);
  const c = new DocumentCanvas({
    title: `${l.invoice} ${invoice.number}`,
    author: invoice.issuer.name,
    subject: l.invoice,
    dated_at: invoice.dated_at,
  });

  c.heading(l.invoice, invoice.issuer, [
    [l.number, invoice.number],
    [l.issuing_date, f.date(invoice.issuing_date)],
    [l.payment_due_date, f.date(invoice.payment_due_date)],
  ]);
  c.parties(
    l.from,
    invoice.issuer,
    l.bill_to,
    invoice.customer,
    { tax_id: l.tax_id, legal_number: l.legal_number },
    invoice.customer.external_id,
  );

  c.startTable({ item: l.item, units: l.units, unitPrice: l.unit_price, amount: l.amount });
  for (const fee of invoice.fees) {
    const details = [
      ...(fee.description ? [fee.description] : []),
      ...(fee.from && fee.to ? [l.period(f.date(fee.from), f.date(fee.to))] : []),
      ...filterLines(fee, l),
      ...breakdownLines(fee, l, f),
    ];
    c.row(fee.name, details, f.quantity(fee.units), f.unitPrice(fee.unit_amount), f.money(fee.amount_cents));
  }
  c.endTable();

  const t = invoice.totals;
  c.total(l.fees_amount, f.money(t.fees_amount_cents));
  if (t.progressive_billing_credit_amount_cents !== 0)
    c.total(l.progressive_billing_credit, f.money(-t.progressive_billing_credit_amount_cents));
  for (const coupon of invoice.coupons) c.total(`${l.coupon}: ${coupon.name}`, f.money(-coupon.amount_cents));
  c.total(l.sub_total_excl_taxes, f.money(t.sub_total_excluding_taxes_amount_cents), { bold: true });
  if (invoice.taxes.length === 0) c.total(l.no_tax, f.money(0));
  for (const tax of invoice.taxes)
    c.total(l.tax(tax.name, f.quantity(tax.rate), f.money(tax.base_amount_cents)), f.money(tax.amount_cents));
  c.total(l.sub_total_incl_taxes, f.money(t.sub_total_including_taxes_amount_cents), { bold: true });
  if (t.credit_notes_amount_cents !== 0) c.total(l.credit_notes, f.money(-t.credit_notes_amount_cents));
  if (t.prepaid_credit_amount_cents !== 0) c.total(l.prepaid_credits, f.money(-t.prepaid_credit_amount_cents));
  c.total(l.total_due, f.money(t.total_amount_cents), { bold: true });
  c.y += 14;

  for (const section of invoice.custom_sections) c.paragraph(section.name, section.details);
  if (invoice.footer) c.paragraph(null, invoice.footer);
  return c.finish(l.page);
}
