import { describe, expect, it } from "vitest";
import { byName, invoiceCustomSectionViolations, type InvoiceCustomSection } from "./invoice-custom-section";

const section = (over: Partial<InvoiceCustomSection> = {}): InvoiceCustomSection => ({
  id: "s1",
  organization_id: "o",
  code: "eu_bank",
  name: "EU bank",
  description: null,
  details: null,
  display_name: null,
  applied_to_organization: false,
  created_at: new Date(0),
  updated_at: new Date(0),
  deleted_at: null,
  ...over,
});

describe("invoice custom section rules", () => {
  it("requires a name and a code, reporting both at once", () => {
    expect(invoiceCustomSectionViolations(section())).toBeNull();
    expect(invoiceCustomSectionViolations(section({ name: " ", code: "" }))).toEqual({
      name: ["value_is_mandatory"],
      code: ["value_is_mandatory"],
    });
  });

  it("orders sections by name, then id", () => {
    const list = [section({ id: "b", name: "Z" }), section({ id: "c", name: "A" }), section({ id: "a", name: "Z" })];
    expect(list.sort(byName).map((s) => s.id)).toEqual(["c", "a", "b"]);
  });
});
