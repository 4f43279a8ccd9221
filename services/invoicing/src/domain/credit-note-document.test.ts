import { renderCreditNotePdf } from "@billing/documents";
import { describe, expect, it } from "vitest";
import { creditNoteDocument } from "./credit-note-document";
import { creditNoteFixture as noteFixture, documentPartiesFixture, finalizedInvoiceFixture } from "./document-fixtures";

describe("creditNoteDocument", () => {
  it("shows the note as issued, each item with the fee it credits, and the parties as the invoice's document does", () => {
    const { customer, entity } = documentPartiesFixture("fr");
    const doc = creditNoteDocument(noteFixture(), finalizedInvoiceFixture(), customer, entity);
    expect(doc).toMatchObject({
      locale: "fr",
      currency: "EUR",
      number: "ACM-001-0001-CN001",
      invoice_number: "ACM-001-0001",
      issuing_date: "2024-02-10",
      // dated at the issuing date (not its creation instant): the same note always renders the same bytes
      dated_at: new Date("2024-02-10T00:00:00Z"),
      reason: "duplicated_charge",
      description: "Appels facturés deux fois",
      credit_status: "available",
      refund_status: null,
      issuer: {
        name: "Électricité Générale",
        legal_number: "RCS 123",
        tax_identification_number: "FR99",
        address: ["12 rue de la Paix", "75002 Paris", "FR"],
      },
      customer: {
        external_id: "acme",
        name: "Acmé",
        tax_identification_number: "FR0011",
        address: ["3 place de l'Opéra", "75009 Paris", "FR"],
      },
      applied_taxes: [{ name: "TVA", rate: "20", base_amount_cents: 1_550, amount_cents: 310 }],
      sub_total_excluding_taxes_amount_cents: 1_550,
      coupons_adjustment_amount_cents: 0,
      taxes_amount_cents: 310,
      credit_amount_cents: 1_860,
      refund_amount_cents: 0,
      offset_amount_cents: 0,
      total_amount_cents: 1_860,
      footer: "Merci !",
    });
    expect(doc.items).toEqual([
      {
        amount_cents: 1_550,
        // the fee's period in the customer's zone (Paris: Jan 31 23:59:59 UTC is Feb 1)
        fee: {
          name: "API calls",
          units: "150.0",
          amount_cents: 1_550,
          from: "2024-01-01",
          to: "2024-02-01",
          filters: { region: ["eu"] },
          grouped_by: { country: "fr" },
        },
      },
    ]);
  });

  it("falls back to the note's customer copy and the entity's code when the customer service no longer has them", () => {
    const doc = creditNoteDocument(noteFixture(), null, null, null);
    expect(doc.locale).toBe("en");
    expect(doc.issuer).toEqual({ name: "default", address: [] });
    expect(doc.customer).toMatchObject({ external_id: "acme", name: "Acme" });
    expect(doc.items).toEqual([{ amount_cents: 1_550, fee: { name: "fee_1", units: "0", amount_cents: 0 } }]);
    expect(doc.footer).toBeNull();
  });

  it("renders the same bytes twice", async () => {
    const { customer, entity } = documentPartiesFixture("fr");
    const view = () => creditNoteDocument(noteFixture(), finalizedInvoiceFixture(), customer, entity);
    expect((await renderCreditNotePdf(view())).equals(await renderCreditNotePdf(view()))).toBe(true);
  });
});
