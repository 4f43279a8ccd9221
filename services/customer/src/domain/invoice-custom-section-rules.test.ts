import { describe, expect, it } from "vitest";
import type { InvoiceCustomSectionRef } from "./catalog-refs";
import { newCustomer } from "./customer-patch";
import { applicableSections, applySectionChoice, sectionChoiceViolations } from "./invoice-custom-section-rules";

const customer = newCustomer({
  id: "c",
  organizationId: "org",
  externalId: "ext",
  sequentialId: 1,
  documentNumberPrefix: "ACM-0001",
  billingEntity: { id: "be-default", code: "default" },
  now: new Date(0),
});
const section = (id: string, name: string): InvoiceCustomSectionRef => ({
  svc_id: id,
  name,
  code: id,
  description: null,
  details: null,
  display_name: null,
  applied_to_organization: false,
  organization_id: "org",
  created_at: "",
  updated_at: "",
});
const [alpha, beta, gamma] = [section("a", "Alpha"), section("b", "Beta"), section("g", "Gamma")];
const live = new Map([alpha, beta, gamma].map((s) => [s.svc_id, s]));
const organization = { sections: [gamma, beta], defaultBillingEntityId: "be-default" };
const names = (list: InvoiceCustomSectionRef[]) => list.map((s) => s.name);

describe("a customer's invoice custom sections", () => {
  it("falls back to the organization's sections, by name, when it chose none", () => {
    expect(names(applicableSections(customer, live, organization))).toEqual(["Beta", "Gamma"]);
  });

  it("shows its own live choice instead, by name, and falls back when all it chose are gone", () => {
    const chose = { ...customer, invoice_custom_section_ids: ["g", "a", "deleted"] };
    expect(names(applicableSections(chose, live, organization))).toEqual(["Alpha", "Gamma"]);
    expect(
      names(applicableSections({ ...chose, invoice_custom_section_ids: ["deleted"] }, live, organization)),
    ).toEqual(["Beta", "Gamma"]);
  });

  it("shows none when it skips them, nor the organization's on another billing entity", () => {
    expect(applicableSections({ ...customer, skip_invoice_custom_sections: true }, live, organization)).toEqual([]);
    expect(applicableSections({ ...customer, billing_entity_id: "be-other" }, live, organization)).toEqual([]);
  });

  it("applies Lago's choice rule: skipping clears the choice, choosing stops skipping, null changes nothing", () => {
    const chose = applySectionChoice(
      { ...customer, skip_invoice_custom_sections: true },
      { invoice_custom_section_codes: ["a"] },
      [alpha],
    );
    expect([chose.skip_invoice_custom_sections, chose.invoice_custom_section_ids]).toEqual([false, ["a"]]);
    const skipped = applySectionChoice(chose, { skip_invoice_custom_sections: true }, undefined);
    expect([skipped.skip_invoice_custom_sections, skipped.invoice_custom_section_ids]).toEqual([true, []]);
    expect(
      applySectionChoice(skipped, { skip_invoice_custom_sections: null }, undefined).skip_invoice_custom_sections,
    ).toBe(true);
    expect(applySectionChoice(chose, { invoice_custom_section_codes: [] }, []).invoice_custom_section_ids).toEqual([]);
    expect(applySectionChoice(chose, { name: "x" }, undefined).invoice_custom_section_ids).toEqual(["a"]);
  });

  it("refuses to skip and choose at once", () => {
    expect(sectionChoiceViolations({ skip_invoice_custom_sections: true, invoice_custom_section_codes: [] })).toEqual({
      invoice_custom_sections: ["skip_sections_and_selected_ids_sent_together"],
    });
    expect(
      sectionChoiceViolations({ skip_invoice_custom_sections: false, invoice_custom_section_codes: ["a"] }),
    ).toBeNull();
  });
});
