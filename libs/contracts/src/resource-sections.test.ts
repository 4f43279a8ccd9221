import { describe, expect, it } from "vitest";
import { chooseSections, NO_SECTIONS, type ResourceSections } from "./resource-sections";

const at = new Date("2024-01-01T00:00:00Z");
const later = new Date("2024-02-01T00:00:00Z");
const ids = (r: ResourceSections) => r.invoice_custom_sections.map((a) => a.invoice_custom_section_id);

describe("chooseSections (Lago's AttachToResourceService)", () => {
  const chosen = chooseSections(NO_SECTIONS, { sectionIds: ["s1", "s2"] }, "sub_1", at);

  it("codes sent choose those sections, each with an id derived from the resource and the section", () => {
    expect(chosen).toEqual({
      skip_invoice_custom_sections: false,
      invoice_custom_sections: [
        { id: expect.any(String), invoice_custom_section_id: "s1", created_at: at },
        { id: expect.any(String), invoice_custom_section_id: "s2", created_at: at },
      ],
    });
    expect(
      chooseSections(NO_SECTIONS, { sectionIds: ["s1", "s2"] }, "sub_1", later).invoice_custom_sections.map(
        (a) => a.id,
      ),
    ).toEqual(chosen.invoice_custom_sections.map((a) => a.id));
    expect(chooseSections(NO_SECTIONS, { sectionIds: ["s1"] }, "sub_2", at).invoice_custom_sections[0]!.id).not.toBe(
      chosen.invoice_custom_sections[0]!.id,
    );
  });

  it("codes sent again replace the choice: a section kept keeps its record, a new one is added, a dropped one goes; [] clears", () => {
    const next = chooseSections(chosen, { sectionIds: ["s3", "s2"] }, "sub_1", later);
    expect(ids(next)).toEqual(["s2", "s3"]);
    expect(next.invoice_custom_sections[0]).toEqual(chosen.invoice_custom_sections[1]);
    expect(next.invoice_custom_sections[1]!.created_at).toEqual(later);
    expect(chooseSections(chosen, { sectionIds: [] }, "sub_1", later)).toEqual(NO_SECTIONS);
  });

  it("nothing sent, or only a flag of false: the choice stays", () => {
    expect(chooseSections(chosen, {}, "sub_1", later)).toEqual(chosen);
    expect(chooseSections(chosen, { skip: false }, "sub_1", later)).toEqual(chosen);
  });

  it("skip sent true drops the choice, whatever codes come with it; a skipping resource ignores codes until skip is sent false", () => {
    const skipping = chooseSections(chosen, { skip: true, sectionIds: ["s1"] }, "sub_1", later);
    expect(skipping).toEqual({ skip_invoice_custom_sections: true, invoice_custom_sections: [] });
    expect(chooseSections(skipping, { sectionIds: ["s1"] }, "sub_1", later)).toEqual(skipping);
    expect(chooseSections(skipping, { skip: null, sectionIds: ["s1"] }, "sub_1", later)).toEqual(skipping);
    const back = chooseSections(skipping, { skip: false, sectionIds: ["s1"] }, "sub_1", later);
    expect(back.skip_invoice_custom_sections).toBe(false);
    expect(ids(back)).toEqual(["s1"]);
    expect(chooseSections(skipping, { skip: false }, "sub_1", later)).toEqual(NO_SECTIONS);
  });
});
