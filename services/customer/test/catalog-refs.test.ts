import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Subjects, type Envelope } from "@billing/bus";
import { AppError } from "@billing/errors";
import { collectEvents, freePort, waitFor } from "@billing/testkit";
import { createInvoiceCustomSection } from "../../catalog/src/use-cases/invoice-custom-sections/create-invoice-custom-section";
import { deleteInvoiceCustomSection } from "../../catalog/src/use-cases/invoice-custom-sections/delete-invoice-custom-section";
import { updateInvoiceCustomSection } from "../../catalog/src/use-cases/invoice-custom-sections/update-invoice-custom-section";
import { createTax } from "../../catalog/src/use-cases/taxes/create-tax";
import { deleteTax } from "../../catalog/src/use-cases/taxes/delete-tax";
import { updateTax } from "../../catalog/src/use-cases/taxes/update-tax";
import { customerHandlers } from "../src/grpc/customer-handlers";
import { grpcCatalog, type Catalog } from "../src/peers/catalog";
import type { CustomerPatch } from "../src/domain/customer-patch";
import { deleteCustomer } from "../src/use-cases/customers/delete-customer";
import { getCustomer } from "../src/use-cases/customers/get-customer";
import { listCustomers } from "../src/use-cases/customers/list-customers";
import { upsertCustomer } from "../src/use-cases/customers/upsert-customer";
import { startCustomerHarness, type CustomerHarness } from "./harness";

let h: CustomerHarness;
beforeAll(async () => (h = await startCustomerHarness("customer_refs")));
afterAll(() => h.close());

const catalogDeps = () => h.peer.catalog.deps;
const upsert = (organizationId: string, externalId: string, patch: CustomerPatch) =>
  upsertCustomer(h.deps, { organizationId, externalId, patch });
const codes = (list: Array<{ code: string }>) => list.map((x) => x.code);

/** The real catalog client, counting the calls made through it. */
function countingCatalog(inner: Catalog) {
  const calls: string[] = [];
  const catalog: Catalog = {
    resolveTaxes: (...a) => (calls.push("resolveTaxes"), inner.resolveTaxes(...a)),
    resolveInvoiceCustomSections: (...a) => (
      calls.push("resolveInvoiceCustomSections"),
      inner.resolveInvoiceCustomSections(...a)
    ),
    organizationInvoiceCustomSections: (...a) => (
      calls.push("organizationInvoiceCustomSections"),
      inner.organizationInvoiceCustomSections(...a)
    ),
  };
  return { catalog, calls };
}

describe("a customer's taxes, resolved in the catalog over gRPC", () => {
  it("shows the full live taxes of its tax codes, and stores their ids", async () => {
    const org = await h.org();
    const vat = await createTax(catalogDeps(), org, { name: "VAT", code: "vat", rate: "20", description: "standard" });
    await createTax(catalogDeps(), org, { name: "GST", code: "gst", rate: "5.5" });
    const { customer, refs } = await upsert(org, "c1", { tax_codes: ["vat", "gst", "vat"] });
    expect(refs.taxes).toEqual([
      {
        svc_id: vat.id,
        name: "VAT",
        code: "vat",
        description: "standard",
        rate: "20",
        applied_to_organization: false,
        created_at: vat.created_at.toISOString(),
        updated_at: vat.updated_at.toISOString(),
      },
      expect.objectContaining({ code: "gst", rate: "5.5", description: null }),
    ]);
    expect(customer.tax_ids).toHaveLength(2);
    expect((await h.models.customers.findById(customer.id).lean<{ tax_ids: string[] }>())?.tax_ids).toEqual(
      customer.tax_ids,
    );

    // read time: a renamed tax shows its new code, a deleted one disappears; [] clears
    await updateTax(catalogDeps(), org, "vat", { code: "vat_fr" });
    await deleteTax(catalogDeps(), org, "gst");
    expect(codes((await getCustomer(h.deps, org, "c1")).refs.taxes)).toEqual(["vat_fr"]);
    expect((await upsert(org, "c1", { name: "kept" })).refs.taxes).toHaveLength(1);
    expect((await upsert(org, "c1", { tax_codes: [] })).refs.taxes).toEqual([]);
  });

  it("answers 404 tax_not_found for an unknown code (or another organization's) and stores nothing", async () => {
    const [org, other] = [await h.org(), await h.org("Other")];
    await createTax(catalogDeps(), org, { name: "VAT", code: "vat", rate: "20" });
    await createTax(catalogDeps(), other, { name: "Theirs", code: "theirs", rate: "1" });
    await expect(upsert(org, "new", { tax_codes: ["vat", "nope"] })).rejects.toMatchObject({
      kind: "not_found",
      code: "tax_not_found",
    });
    await expect(upsert(org, "new", { tax_codes: ["theirs"] })).rejects.toMatchObject({ code: "tax_not_found" });
    expect(await h.models.customers.countDocuments({ organization_id: org })).toBe(0);

    await upsert(org, "old", { name: "Before", tax_codes: ["vat"] });
    await expect(upsert(org, "old", { name: "After", tax_codes: ["nope"] })).rejects.toMatchObject({
      code: "tax_not_found",
    });
    const kept = await getCustomer(h.deps, org, "old");
    expect([kept.customer.name, codes(kept.refs.taxes)]).toEqual(["Before", ["vat"]]);
  });

  it("reports field errors before unknown taxes, as Lago validates first", async () => {
    const org = await h.org();
    await expect(upsert(org, "bad", { country: "ZZ", tax_codes: ["nope"] })).rejects.toMatchObject({
      details: { country: ["not_a_valid_country_code"] },
    });
  });

  it("carries the resolved taxes in the customer events", async () => {
    const org = await h.org();
    await createTax(catalogDeps(), org, { name: "VAT", code: "vat", rate: "20" });
    const created = collectEvents<Envelope<{ customer: { taxes: unknown[]; tax_codes: string[] } }>>(
      h.bus.nc,
      Subjects.customer.customerCreated,
      org,
    );
    const deleted = collectEvents<Envelope<{ customer: { taxes: unknown[] } }>>(
      h.bus.nc,
      Subjects.customer.customerDeleted,
      org,
    );
    await upsert(org, "evt", { tax_codes: ["vat"] });
    const removed = await deleteCustomer(h.deps, org, "evt");
    expect(codes(removed.refs.taxes)).toEqual(["vat"]);
    await waitFor(() => created.received.length === 1 && deleted.received.length === 1, { what: "customer events" });
    created.stop();
    deleted.stop();
    expect(created.received[0]!.data.customer).toMatchObject({
      tax_codes: ["vat"],
      taxes: [expect.objectContaining({ code: "vat", rate: "20" })],
    });
    expect(deleted.received[0]!.data.customer.taxes).toHaveLength(1);
  });

  it("reads a whole page with one catalog call of each kind", async () => {
    const org = await h.org();
    for (const code of ["t1", "t2", "t3"]) await createTax(catalogDeps(), org, { name: code, code, rate: "1" });
    await createInvoiceCustomSection(catalogDeps(), org, { name: "Own", code: "own" });
    for (let i = 0; i < 12; i++) {
      await upsert(org, `p${i}`, {
        tax_codes: [`t${(i % 3) + 1}`],
        invoice_custom_section_codes: i % 2 ? ["own"] : undefined,
      });
    }
    const counting = countingCatalog(h.deps.catalog);
    const page = await listCustomers({ ...h.deps, catalog: counting.catalog }, org, { page: 1, perPage: 10 });
    expect(page.items).toHaveLength(10);
    expect(page.items.every((c) => c.refs.taxes.length === 1)).toBe(true);
    expect(counting.calls.sort()).toEqual([
      "organizationInvoiceCustomSections",
      "resolveInvoiceCustomSections",
      "resolveTaxes",
    ]);
  });
});

describe("a customer's applicable invoice custom sections", () => {
  it("follows Lago's rule: the organization's, its own choice instead, none when skipping", async () => {
    const [org, other] = [await h.org(), await h.org("Other")];
    await createInvoiceCustomSection(catalogDeps(), org, {
      name: "Zeta bank",
      code: "bank",
      applied_to_organization: true,
    });
    await createInvoiceCustomSection(catalogDeps(), org, {
      name: "Alpha legal",
      code: "legal",
      applied_to_organization: true,
    });
    await createInvoiceCustomSection(catalogDeps(), org, { name: "Own", code: "own" });
    await createInvoiceCustomSection(catalogDeps(), other, {
      name: "Not yours",
      code: "own",
      applied_to_organization: true,
    });

    expect(codes((await upsert(org, "s1", {})).refs.applicable_invoice_custom_sections)).toEqual(["legal", "bank"]);
    const chose = await upsert(org, "s1", { invoice_custom_section_codes: ["own", "unknown"] });
    expect(codes(chose.refs.applicable_invoice_custom_sections)).toEqual(["own"]);
    expect(chose.refs.applicable_invoice_custom_sections[0]).toMatchObject({
      organization_id: org,
      applied_to_organization: false,
      details: null,
    });

    const skipped = await upsert(org, "s1", { skip_invoice_custom_sections: true });
    expect([skipped.customer.skip_invoice_custom_sections, skipped.refs.applicable_invoice_custom_sections]).toEqual([
      true,
      [],
    ]);
    expect(skipped.customer.invoice_custom_section_ids).toEqual([]);
    await expect(
      upsert(org, "s1", { skip_invoice_custom_sections: true, invoice_custom_section_codes: ["own"] }),
    ).rejects.toMatchObject({
      details: { invoice_custom_sections: ["skip_sections_and_selected_ids_sent_together"] },
    });

    const again = await upsert(org, "s1", { invoice_custom_section_codes: ["own"] });
    expect([again.customer.skip_invoice_custom_sections, codes(again.refs.applicable_invoice_custom_sections)]).toEqual(
      [false, ["own"]],
    );
    await deleteInvoiceCustomSection(catalogDeps(), org, "own");
    await updateInvoiceCustomSection(catalogDeps(), org, "bank", { applied_to_organization: false });
    expect(codes((await getCustomer(h.deps, org, "s1")).refs.applicable_invoice_custom_sections)).toEqual(["legal"]);

    expect(codes((await upsert(other, "s1", {})).refs.applicable_invoice_custom_sections)).toEqual(["own"]);
  });
});

describe("when the catalog cannot answer", () => {
  it("fails a read with a clean 503 (unavailable), through the gRPC handler too", async () => {
    const org = await h.org();
    await upsert(org, "down", { name: "Still here" });
    const deadCatalog = grpcCatalog(`127.0.0.1:${await freePort()}`, 1000);
    const deps = { ...h.deps, catalog: deadCatalog };
    try {
      const err = await getCustomer(deps, org, "down").catch((e) => e);
      expect(err).toBeInstanceOf(AppError);
      expect([err.kind, err.httpStatus]).toEqual(["unavailable", 503]);
      const viaHandler = await customerHandlers(deps).GetCustomer!({ organization_id: org, external_id: "down" }, {
        requestId: "r",
      } as never).catch((e) => e);
      expect(viaHandler.kind).toBe("unavailable");
      await expect(
        upsertCustomer(deps, { organizationId: org, externalId: "down", patch: { name: "Changed" } }),
      ).rejects.toMatchObject({ kind: "unavailable" });
      expect((await getCustomer(h.deps, org, "down")).customer.name).toBe("Still here");
    } finally {
      deadCatalog.close();
    }
  });
});
