import { describe, expect, it } from "vitest";
import { creditNoteFixture } from "./fixtures";
import { hasPoppler, pdfText } from "./poppler";
import { renderCreditNotePdf } from "./render-credit-note";

const plain = (s: string) => s.replace(/[\u202f\u00a0]/g, " ");

describe("renderCreditNotePdf", () => {
  it("gives the same bytes for the same credit note, dated from it", async () => {
    const a = await renderCreditNotePdf(creditNoteFixture());
    expect(a.equals(await renderCreditNotePdf(creditNoteFixture()))).toBe(true);
    expect(a.toString("latin1")).toContain("(D:20240210000000Z)");
  });

  it.skipIf(!hasPoppler)(
    "shows each item against its fee, taxes per rate, what is credited and refunded (en)",
    async () => {
      const text = plain(pdfText(await renderCreditNotePdf(creditNoteFixture("en"))));
      for (const s of [
        "Credit note",
        "ACME-202401-0042-CN001",
        "Invoice: ACME-202401-0042",
        "duplicated_charge · Appels facturés deux fois",
        "Seats",
        "€100.00",
        "€50.00",
        "Group: team: ops",
        "API calls",
        "1,234.5",
        "€12.34",
        "Filters: region: eu",
        "Subtotal excluding tax",
        "€62.34",
        "Coupons adjustment",
        "-€5.00",
        "TVA (20% on €57.34)",
        "€11.47",
        "Credited to the customer's balance",
        "€48.81",
        "Refunded",
        "€20.00",
        "Total credited",
        "€68.81",
      ])
        expect(text).toContain(s);
    },
  );

  it.skipIf(!hasPoppler)("in French", async () => {
    const text = plain(pdfText(await renderCreditNotePdf(creditNoteFixture("fr"))));
    for (const s of [
      "Avoir",
      "Crédité sur le solde du client",
      "48,81 €",
      "Remboursé",
      "20,00 €",
      "Total de l'avoir",
      "68,81 €",
      "TVA (20 % sur 57,34 €)",
      "1 234,5",
    ]) {
      expect(text).toContain(s);
    }
  });
});
