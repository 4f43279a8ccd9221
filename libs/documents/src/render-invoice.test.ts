import { describe, expect, it } from "vitest";
import { formatMoney } from "@billing/pricing";
import { invoiceFixture } from "./fixtures";
import { hasPoppler, pdfText, pdfToPngs } from "./poppler";
import { renderInvoicePdf } from "./render-invoice";

// poppler joins words with plain spaces; Intl groups French thousands with U+202F and puts U+00A0 before €
const plain = (s: string) => s.replace(/[\u202f\u00a0]/g, " ");

describe("renderInvoicePdf", () => {
  it("is a PDF dated from the invoice, the same bytes at every rendering", async () => {
    const a = await renderInvoicePdf(invoiceFixture(5));
    const b = await renderInvoicePdf(invoiceFixture(5));
    expect(a.subarray(0, 5).toString()).toBe("%PDF-");
    expect(a.equals(b)).toBe(true);
    // no random file ID and no rendering time: CreationDate is the invoice's
    expect(a.toString("latin1")).toContain("(D:20240201000000Z)");
  });

  it("changes when the invoice does", async () => {
    const other = invoiceFixture(5);
    other.totals.total_amount_cents += 1;
    expect((await renderInvoicePdf(invoiceFixture(5))).equals(await renderInvoicePdf(other))).toBe(false);
  });

  it("renders an invoice without fees, taxes, coupons or custom sections", async () => {
    const empty = { ...invoiceFixture(0), coupons: [], taxes: [], custom_sections: [], footer: null };
    const pdf = await renderInvoicePdf(empty);
    if (hasPoppler) expect(plain(pdfText(pdf))).toContain("Tax (0%)");
  });
});

describe.skipIf(!hasPoppler)("an invoice of 50 fees, through poppler (pdftoppm, pdftotext)", () => {
  /** every amount the invoice shows: each fee, each total (deductions negative), each tax and its base */
  const amounts = (invoice: ReturnType<typeof invoiceFixture>, locale: string) => {
    const t = invoice.totals;
    return [
      ...invoice.fees.map((f) => f.amount_cents),
      t.fees_amount_cents,
      -t.progressive_billing_credit_amount_cents,
      -t.coupons_amount_cents,
      t.sub_total_excluding_taxes_amount_cents,
      t.sub_total_including_taxes_amount_cents,
      -t.credit_notes_amount_cents,
      -t.prepaid_credit_amount_cents,
      t.total_amount_cents,
      ...invoice.coupons.map((c) => -c.amount_cents),
      ...invoice.taxes.flatMap((tax) => [tax.amount_cents, tax.base_amount_cents]),
    ].map((cents) => plain(formatMoney(cents, invoice.currency, locale)));
  };

  it("renders to PNG pages and its text holds every amount, name and section (en)", async () => {
    const invoice = invoiceFixture(50, "en");
    const pdf = await renderInvoicePdf(invoice);
    const pngs = pdfToPngs(pdf);
    expect(pngs.length).toBeGreaterThan(1);
    for (const png of pngs) expect(png.subarray(1, 4).toString()).toBe("PNG");
    const text = plain(pdfText(pdf));
    for (const amount of amounts(invoice, "en")) expect(text).toContain(amount);
    for (const fee of invoice.fees) expect(text).toContain(fee.name);
    expect(text).toContain("€1,472.20"); // total due
    expect(text).toContain("Total due");
    expect(text).toContain("Coupon: Été 2024");
    expect(text).toContain("TVA réduite (5.5% on €100.00)");
    expect(text).toContain("0 to 100: 100 × €0.10 + €5.00 flat fee = €15.00");
    expect(text).toContain("Filters: region: eu, us");
    expect(text).toContain("Group: country: fr");
    expect(text).toContain("€7.50 per package of 100");
    expect(text).toContain("Coordonnées bancaires");
    expect(text).toContain("Électricité Générale SAS");
    expect(text).toContain("Tax ID: FR12345678901");
    expect(text).toMatch(/Page 1 of \d/);
  });

  it("in French: words, accents and amounts in the French format (1 472,20 €)", async () => {
    const invoice = invoiceFixture(50, "fr");
    const text = plain(pdfText(await renderInvoicePdf(invoice)));
    for (const amount of amounts(invoice, "fr")) expect(text).toContain(amount);
    expect(text).toContain("1 472,20 €"); // total due, grouped and with a decimal comma
    expect(text).toContain("Total à payer");
    expect(text).toContain("Date d'émission: 1 févr. 2024");
    expect(text).toContain("de 0 à 100: 100 × 0,10 € + 5,00 € forfait = 15,00 €");
    expect(text).toContain("Sous-total hors taxes");
    expect(text).toContain("Pénalités de retard");
    expect(text).toContain("du 1 janv. 2024 au 31 janv. 2024");
    expect(text).not.toContain("Total due");
  });
});
