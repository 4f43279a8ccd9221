import { describe, expect, it } from "vitest";
import { invoiceSections } from "./custom-sections";

const section = (code: string) => ({ code, name: code.toUpperCase(), display_name: null, details: `${code} details` });
const [bank, eu, legal] = [section("bank"), section("eu"), section("legal")];
const codes = (list: Array<{ code: string }>) => list.map((s) => s.code);

describe("invoiceSections (Lago's ApplyInvoiceCustomSectionsService)", () => {
  it("without resources or a choice of its own, an invoice shows the customer's sections", () => {
    expect(codes(invoiceSections([bank]))).toEqual(["bank"]);
    expect(codes(invoiceSections([bank], { resources: [] }))).toEqual(["bank"]);
  });

  it("sections chosen for the invoice itself replace the customer's; an empty choice does not", () => {
    expect(codes(invoiceSections([bank], { chosen: [eu] }))).toEqual(["eu"]);
    expect(codes(invoiceSections([bank], { chosen: [] }))).toEqual(["bank"]);
  });

  it("a resource's own sections replace the customer's, even when the customer skips sections", () => {
    expect(codes(invoiceSections([bank], { resources: [{ skip: false, sections: [eu] }] }))).toEqual(["eu"]);
    expect(codes(invoiceSections([], { resources: [{ skip: false, sections: [eu] }] }))).toEqual(["eu"]);
  });

  it("several resources: their sections once each, the customer's added when one of them has none", () => {
    const both = invoiceSections([legal], {
      resources: [
        { skip: false, sections: [eu, bank] },
        { skip: false, sections: [bank] },
      ],
    });
    expect(codes(both)).toEqual(["eu", "bank"]);
    const mixed = invoiceSections([legal, eu], {
      resources: [
        { skip: false, sections: [eu] },
        { skip: false, sections: [] },
      ],
    });
    expect(codes(mixed)).toEqual(["eu", "legal"]);
  });

  it("resources that all skip sections: none; a skipping resource beside one without sections: the customer's", () => {
    expect(invoiceSections([bank], { resources: [{ skip: true, sections: [] }] })).toEqual([]);
    expect(
      codes(
        invoiceSections([bank], {
          resources: [
            { skip: true, sections: [] },
            { skip: false, sections: [] },
          ],
        }),
      ),
    ).toEqual(["bank"]);
    expect(
      codes(
        invoiceSections([bank], {
          resources: [
            { skip: true, sections: [] },
            { skip: false, sections: [eu] },
          ],
        }),
      ),
    ).toEqual(["eu"]);
  });
});
