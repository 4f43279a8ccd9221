import { describe, expect, it } from "vitest";
import { ruleSections, type RecurringRule } from "./recurring-rules";
import { sectionResourceOf, type OwnSections } from "./wallet";

const at = new Date("2024-01-01T00:00:00Z");
const chose = (...ids: string[]): OwnSections => ({
  skip_invoice_custom_sections: false,
  invoice_custom_sections: ids.map((id) => ({ id: `a_${id}`, invoice_custom_section_id: id, created_at: at })),
});
const skips: OwnSections = { skip_invoice_custom_sections: true, invoice_custom_sections: [] };
const none: OwnSections = {};

describe("a top-up invoice's section resource (Lago's invoice_custom_section_resource)", () => {
  it("is the transaction when it chose sections or skips them, whatever its wallet chose", () => {
    expect(sectionResourceOf(chose("legal"), chose("bank"))).toEqual({ skip: false, section_ids: ["legal"] });
    expect(sectionResourceOf(skips, chose("bank"))).toEqual({ skip: true, section_ids: [] });
  });

  it("is the wallet when the transaction chose nothing and the wallet did; else the transaction's empty choice (the customer's sections)", () => {
    expect(sectionResourceOf(none, chose("bank"))).toEqual({ skip: false, section_ids: ["bank"] });
    expect(sectionResourceOf(none, skips)).toEqual({ skip: true, section_ids: [] });
    expect(sectionResourceOf(none, none)).toEqual({ skip: false, section_ids: [] });
  });
});

describe("a rule's sections for the transactions it makes (Lago's invoice_custom_section_params)", () => {
  const rule = (own: OwnSections) => ({ id: "r1", ...own }) as RecurringRule;
  it("passes its chosen sections or its skip flag, and nothing when it has neither", () => {
    expect(ruleSections(rule(chose("legal")))).toEqual({ skip: false, sectionIds: ["legal"] });
    expect(ruleSections(rule(skips))).toEqual({ skip: true, sectionIds: [] });
    expect(ruleSections(rule(none))).toBeUndefined();
  });
});
