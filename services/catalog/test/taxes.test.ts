import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTax } from "../src/use-cases/taxes/create-tax";
import { deleteTax } from "../src/use-cases/taxes/delete-tax";
import { getTax } from "../src/use-cases/taxes/get-tax";
import { listTaxes } from "../src/use-cases/taxes/list-taxes";
import { updateTax } from "../src/use-cases/taxes/update-tax";
import { startHarness, type Harness } from "./harness";

let h: Harness;
beforeAll(async () => (h = await startHarness("catalog_taxes")));
afterAll(() => h.close());

describe("taxes against MongoDB", () => {
  it("creates, reads, updates and lists a tax with its rate kept as a decimal string", async () => {
    const org = h.org();
    const tax = await createTax(h.deps, org, { name: "VAT", code: "vat", rate: "20.50" });
    expect(tax).toMatchObject({ code: "vat", rate: "20.5", applied_to_organization: false, description: null });
    expect((await getTax(h.deps, org, "vat")).id).toBe(tax.id);
    h.clock.advance(1000);
    const updated = await updateTax(h.deps, org, "vat", { rate: "5.5", description: "reduced" });
    expect(updated).toMatchObject({ id: tax.id, name: "VAT", rate: "5.5", description: "reduced" });
    expect(updated.updated_at.getTime()).toBeGreaterThan(tax.updated_at.getTime());
    const cleared = await updateTax(h.deps, org, "vat", { description: null });
    expect(cleared.description).toBeNull();
  });

  it("refuses a duplicate code in one organization but not across organizations", async () => {
    const [org, other] = [h.org(), h.org()];
    await createTax(h.deps, org, { name: "A", code: "dup", rate: "1" });
    await expect(createTax(h.deps, org, { name: "B", code: "dup", rate: "2" })).rejects.toMatchObject({
      code: "validation_errors",
      details: { code: ["value_already_exist"] },
    });
    await createTax(h.deps, other, { name: "B", code: "dup", rate: "2" });
    await createTax(h.deps, org, { name: "C", code: "other", rate: "2" });
    await expect(updateTax(h.deps, org, "other", { code: "dup" })).rejects.toMatchObject({
      details: { code: ["value_already_exist"] },
    });
    expect(await h.models.taxes.countDocuments({ organization_id: org })).toBe(2);
  });

  it("stores nothing when the tax is invalid, reporting every problem", async () => {
    const org = h.org();
    const err = await createTax(h.deps, org, { code: "bad", rate: "-1" }).catch((e) => e);
    expect(err.details).toEqual({ name: ["value_is_mandatory"], rate: ["value_is_out_of_range"] });
    expect(await h.models.taxes.countDocuments({ organization_id: org })).toBe(0);
  });

  it("soft-deletes: the tax disappears and its code can be reused", async () => {
    const org = h.org();
    const tax = await createTax(h.deps, org, { name: "Gone", code: "gone", rate: "10" });
    const deleted = await deleteTax(h.deps, org, "gone");
    expect(deleted.deleted_at).not.toBeNull();
    await expect(getTax(h.deps, org, "gone")).rejects.toMatchObject({ code: "tax_not_found" });
    await expect(deleteTax(h.deps, org, "gone")).rejects.toMatchObject({ code: "tax_not_found" });
    const again = await createTax(h.deps, org, { name: "Back", code: "gone", rate: "10" });
    expect(again.id).not.toBe(tax.id);
    expect((await listTaxes(h.deps, org, { page: 1, perPage: 10 })).total).toBe(1);
  });

  it("lists newest first, paginated, scoped to the organization", async () => {
    const org = h.org();
    for (const code of ["t1", "t2", "t3"]) {
      await createTax(h.deps, org, { name: code, code, rate: "1" });
      h.clock.advance(1000);
    }
    await createTax(h.deps, h.org(), { name: "x", code: "t9", rate: "1" });
    const first = await listTaxes(h.deps, org, { page: 1, perPage: 2 });
    const second = await listTaxes(h.deps, org, { page: 2, perPage: 2 });
    expect(first.total).toBe(3);
    expect([...first.items, ...second.items].map((t) => t.code)).toEqual(["t3", "t2", "t1"]);
  });

  it("keeps codes unique under concurrent creates", async () => {
    const org = h.org();
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () => createTax(h.deps, org, { name: "race", code: "race", rate: "1" })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await h.models.taxes.countDocuments({ organization_id: org })).toBe(1);
  });
});
