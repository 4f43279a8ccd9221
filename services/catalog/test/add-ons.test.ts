import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAddOn } from "../src/use-cases/add-ons/create-add-on";
import { deleteAddOn } from "../src/use-cases/add-ons/delete-add-on";
import { getAddOn } from "../src/use-cases/add-ons/get-add-on";
import { listAddOns } from "../src/use-cases/add-ons/list-add-ons";
import { updateAddOn } from "../src/use-cases/add-ons/update-add-on";
import { createTax } from "../src/use-cases/taxes/create-tax";
import { deleteTax } from "../src/use-cases/taxes/delete-tax";
import { updateTax } from "../src/use-cases/taxes/update-tax";
import { startHarness, type Harness } from "./harness";

let h: Harness;
beforeAll(async () => (h = await startHarness("catalog_add_ons")));
afterAll(() => h.close());

const setupFee = { name: "Setup", code: "setup", amount_cents: 50_000, amount_currency: "EUR" };

describe("add-ons against MongoDB", () => {
  it("creates an add-on with its taxes resolved from their codes", async () => {
    const org = h.org();
    await createTax(h.deps, org, { name: "VAT", code: "vat", rate: "20" });
    const { addOn, taxes } = await createAddOn(h.deps, org, { patch: setupFee, taxCodes: ["vat"] });
    expect(addOn).toMatchObject({
      code: "setup",
      amount_cents: 50_000,
      amount_currency: "EUR",
      invoice_display_name: null,
    });
    expect(taxes.map((t) => t.code)).toEqual(["vat"]);
    expect((await getAddOn(h.deps, org, "setup")).taxes.map((t) => t.rate)).toEqual(["20"]);
  });

  it("answers 404 tax_not_found for an unknown tax code and stores nothing", async () => {
    const org = h.org();
    await expect(createAddOn(h.deps, org, { patch: setupFee, taxCodes: ["nope"] })).rejects.toMatchObject({
      code: "tax_not_found",
    });
    expect(await h.models.addOns.countDocuments({ organization_id: org })).toBe(0);
  });

  it("shows the taxes as they are now: renamed, re-rated or deleted", async () => {
    const org = h.org();
    await createTax(h.deps, org, { name: "VAT", code: "vat", rate: "20" });
    await createTax(h.deps, org, { name: "Eco", code: "eco", rate: "1" });
    await createAddOn(h.deps, org, { patch: setupFee, taxCodes: ["vat", "eco"] });
    await updateTax(h.deps, org, "vat", { rate: "21" });
    await deleteTax(h.deps, org, "eco");
    expect((await getAddOn(h.deps, org, "setup")).taxes.map((t) => [t.code, t.rate])).toEqual([["vat", "21"]]);
  });

  it("validates amount and currency, updates only what is sent, and replaces taxes when sent", async () => {
    const org = h.org();
    await createTax(h.deps, org, { name: "VAT", code: "vat", rate: "20" });
    const err = await createAddOn(h.deps, org, {
      patch: { name: "X", code: "x", amount_cents: -1, amount_currency: "EURO" },
    }).catch((e) => e);
    expect(err.details).toEqual({ amount_cents: ["value_is_out_of_range"], amount_currency: ["value_is_invalid"] });
    await createAddOn(h.deps, org, { patch: setupFee, taxCodes: ["vat"] });
    const kept = await updateAddOn(h.deps, org, "setup", { patch: { description: "once" } });
    expect([kept.addOn.description, kept.addOn.amount_cents, kept.taxes.length]).toEqual(["once", 50_000, 1]);
    const cleared = await updateAddOn(h.deps, org, "setup", {
      patch: { invoice_display_name: "Setup fee" },
      taxCodes: [],
    });
    expect([cleared.addOn.invoice_display_name, cleared.taxes]).toEqual(["Setup fee", []]);
  });

  it("soft-deletes, frees the code, and lists newest first per organization", async () => {
    const org = h.org();
    await createAddOn(h.deps, org, { patch: setupFee });
    h.clock.advance(1000);
    await createAddOn(h.deps, org, { patch: { ...setupFee, code: "second" } });
    await createAddOn(h.deps, h.org(), { patch: setupFee });
    expect((await listAddOns(h.deps, org, { page: 1, perPage: 10 })).items.map((a) => a.addOn.code)).toEqual([
      "second",
      "setup",
    ]);
    await deleteAddOn(h.deps, org, "setup");
    await expect(getAddOn(h.deps, org, "setup")).rejects.toMatchObject({ code: "add_on_not_found" });
    await expect(createAddOn(h.deps, org, { patch: { ...setupFee, code: "second" } })).rejects.toMatchObject({
      details: { code: ["value_already_exist"] },
    });
    await createAddOn(h.deps, org, { patch: setupFee });
    expect((await listAddOns(h.deps, org, { page: 1, perPage: 10 })).total).toBe(2);
  });
});
