import { describe, expect, it } from "vitest";
import { documentPartiesFixture, finalizedInvoiceFixture } from "./document-fixtures";
import { addressLines, documentLocale, invoiceDocument, logoBytes } from "./invoice-document";

describe("invoiceDocument", () => {
  it("shows the invoice as finalized, the issuer from the billing entity and the customer from the customer service", () => {
    const { customer, entity } = documentPartiesFixture("fr");
    const doc = invoiceDocument(finalizedInvoiceFixture(), customer, entity);
    expect(doc).toMatchObject({
      locale: "fr",
      currency: "EUR",
      number: "ACM-001-0001",
      issuing_date: "2024-02-01",
      dated_at: new Date("2024-02-01T00:00:00Z"),
      issuer: {
        name: "Électricité Générale",
        legal_number: "RCS 123",
        tax_identification_number: "FR99",
        address: ["12 rue de la Paix", "75002 Paris", "FR"],
        logo: null,
      },
      customer: {
        external_id: "acme",
        name: "Acmé",
        legal_name: "Acmé SARL",
        tax_identification_number: "FR0011",
        address: ["3 place de l'Opéra", "75009 Paris", "FR"],
      },
      coupons: [{ name: "Bienvenue", amount_cents: 1_000 }],
      taxes: [{ name: "TVA", rate: "20", base_amount_cents: 10_550, amount_cents: 2_110 }],
      totals: {
        fees_amount_cents: 11_550,
        coupons_amount_cents: 1_000,
        prepaid_credit_amount_cents: 660,
        total_amount_cents: 12_000,
      },
      custom_sections: [{ name: "Coordonnées bancaires", details: "IBAN FR76 3000 6000 0112 3456 7890 189" }],
      footer: "Merci !",
    });
    // the empty fee (no units, no amount) is left out; the others keep their order, model and details
    expect(doc.fees.map((f) => f.name)).toEqual(["API calls", "Starter plan"]);
    expect(doc.fees[0]).toMatchObject({
      units: "150.0",
      unit_amount: "0.1033333",
      amount_cents: 1_550,
      charge_model: "graduated",
      filters: { region: ["eu"] },
      grouped_by: { country: "fr" },
      // the period in the customer's zone (Paris: Jan 31 23:59:59 UTC is Feb 1)
      from: "2024-01-01",
      to: "2024-02-01",
    });
  });

  it("falls back to the invoice's customer copy when the customer service no longer has the customer", () => {
    const doc = invoiceDocument(finalizedInvoiceFixture(), null, null);
    expect(doc.locale).toBe("en");
    expect(doc.customer).toMatchObject({ name: "Acme", external_id: "acme" });
    expect(doc.issuer).toEqual({ name: "default", address: [] });
    expect(doc.custom_sections).toEqual([]);
  });

  it("takes the customer's document locale, else the billing entity's, else English", () => {
    const { customer, entity } = documentPartiesFixture(null);
    expect(documentLocale(customer, entity)).toBe("en");
    expect(documentLocale(null, { ...entity, document_locale: "fr" })).toBe("fr");
    expect(documentLocale(documentPartiesFixture("fr").customer, { ...entity, document_locale: "de" })).toBe("fr");
  });

  it("reads a logo given as a data URL, never fetches another", () => {
    expect(logoBytes("data:image/png;base64,iVBORw0KGgo=")).toEqual(Buffer.from("iVBORw0KGgo=", "base64"));
    expect(logoBytes("https://example.com/logo.png")).toBeNull();
    expect(logoBytes(null)).toBeNull();
    expect(addressLines({ address_line1: " ", city: "Lyon", zipcode: null, country: "FR" })).toEqual(["Lyon", "FR"]);
  });
});
