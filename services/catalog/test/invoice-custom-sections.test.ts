import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Rpc } from "@billing/contracts";
import { bind, RpcClient, startGrpcServer } from "@billing/grpc";
import { silentLogger } from "@billing/logger";
import { invoiceCustomSectionHandlers } from "../src/grpc/invoice-custom-section-handlers";
import { createInvoiceCustomSection } from "../src/use-cases/invoice-custom-sections/create-invoice-custom-section";
import { deleteInvoiceCustomSection } from "../src/use-cases/invoice-custom-sections/delete-invoice-custom-section";
import { getInvoiceCustomSection } from "../src/use-cases/invoice-custom-sections/get-invoice-custom-section";
import { listInvoiceCustomSections } from "../src/use-cases/invoice-custom-sections/list-invoice-custom-sections";
import { listAppliedInvoiceCustomSections } from "../src/use-cases/invoice-custom-sections/list-applied-invoice-custom-sections";
import { resolveInvoiceCustomSections } from "../src/use-cases/invoice-custom-sections/resolve-invoice-custom-sections";
import { updateInvoiceCustomSection } from "../src/use-cases/invoice-custom-sections/update-invoice-custom-section";
import { createTax } from "../src/use-cases/taxes/create-tax";
import { deleteTax } from "../src/use-cases/taxes/delete-tax";
import { resolveTaxes } from "../src/use-cases/taxes/resolve-taxes";
import { startHarness, type Harness } from "./harness";

let h: Harness;
beforeAll(async () => (h = await startHarness("catalog_sections")));
afterAll(() => h.close());

const create = (org: string, code: string, extra: Record<string, unknown> = {}) =>
  createInvoiceCustomSection(h.deps, org, { name: `Section ${code}`, code, ...extra });

describe("invoice custom sections against MongoDB", () => {
  it("creates, reads, updates and clears a section", async () => {
    const org = h.org();
    const section = await create(org, "eu_bank", { details: "IBAN FR76", display_name: "Bank details" });
    expect(section).toMatchObject({
      code: "eu_bank",
      details: "IBAN FR76",
      display_name: "Bank details",
      description: null,
      applied_to_organization: false,
      organization_id: org,
    });
    expect((await getInvoiceCustomSection(h.deps, org, "eu_bank")).id).toBe(section.id);
    h.clock.advance(1000);
    const updated = await updateInvoiceCustomSection(h.deps, org, "eu_bank", {
      applied_to_organization: true,
      details: null,
      code: "eu_bank_2",
    });
    expect(updated).toMatchObject({
      id: section.id,
      name: "Section eu_bank",
      details: null,
      applied_to_organization: true,
      code: "eu_bank_2",
    });
    expect(updated.updated_at.getTime()).toBeGreaterThan(section.updated_at.getTime());
    await expect(getInvoiceCustomSection(h.deps, org, "eu_bank")).rejects.toMatchObject({
      code: "invoice_custom_section_not_found",
    });
  });

  it("keeps codes unique among an organization's live sections", async () => {
    const [org, other] = [h.org(), h.org()];
    await create(org, "dup");
    await expect(create(org, "dup")).rejects.toMatchObject({
      code: "validation_errors",
      details: { code: ["value_already_exist"] },
    });
    await create(other, "dup");
    await create(org, "second");
    await expect(updateInvoiceCustomSection(h.deps, org, "second", { code: "dup" })).rejects.toMatchObject({
      details: { code: ["value_already_exist"] },
    });
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => create(org, "race")));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await h.models.invoiceCustomSections.countDocuments({ organization_id: org })).toBe(3);
  });

  it("stores nothing when name or code is missing", async () => {
    const org = h.org();
    const err = await createInvoiceCustomSection(h.deps, org, { name: " " }).catch((e) => e);
    expect(err.details).toEqual({ name: ["value_is_mandatory"], code: ["value_is_mandatory"] });
    await create(org, "kept");
    await expect(updateInvoiceCustomSection(h.deps, org, "kept", { name: null })).rejects.toMatchObject({
      details: { name: ["value_is_mandatory"] },
    });
    expect((await getInvoiceCustomSection(h.deps, org, "kept")).name).toBe("Section kept");
    expect(await h.models.invoiceCustomSections.countDocuments({ organization_id: org })).toBe(1);
  });

  it("soft-deletes: the section disappears everywhere and its code can be reused", async () => {
    const org = h.org();
    const gone = await create(org, "gone", { applied_to_organization: true });
    expect((await deleteInvoiceCustomSection(h.deps, org, "gone")).deleted_at).not.toBeNull();
    await expect(deleteInvoiceCustomSection(h.deps, org, "gone")).rejects.toMatchObject({
      code: "invoice_custom_section_not_found",
    });
    expect(await listAppliedInvoiceCustomSections(h.deps, org)).toEqual([]);
    expect(await resolveInvoiceCustomSections(h.deps, org, { codes: ["gone"], ids: [gone.id] })).toEqual([]);
    expect((await create(org, "gone")).id).not.toBe(gone.id);
  });

  it("lists newest first with the id as tiebreaker, scoped to the organization", async () => {
    const org = h.org();
    for (const code of ["s1", "s2"]) {
      await create(org, code);
      h.clock.advance(1000);
    }
    const sameTime = await Promise.all(["s3", "s4"].map((code) => create(org, code)));
    await create(h.org(), "elsewhere");
    const first = await listInvoiceCustomSections(h.deps, org, { page: 1, perPage: 3 });
    const second = await listInvoiceCustomSections(h.deps, org, { page: 2, perPage: 3 });
    expect(first.total).toBe(4);
    const tied = [...sameTime].sort((x, y) => (x.id < y.id ? 1 : -1)).map((s) => s.code); // same created_at: id descending
    expect([...first.items, ...second.items].map((s) => s.code)).toEqual([...tied, "s2", "s1"]);
  });

  it("resolves codes and ids to the organization's live sections, by name, and lists those applied to it", async () => {
    const [org, other] = [h.org(), h.org()];
    const b = await create(org, "b", { name: "Beta", applied_to_organization: true });
    const a = await create(org, "a", { name: "Alpha" });
    await create(org, "c", { name: "Charlie", applied_to_organization: true });
    await create(other, "a", { name: "Other", applied_to_organization: true });
    const resolved = await resolveInvoiceCustomSections(h.deps, org, {
      codes: ["b", "a", "unknown"],
      ids: [a.id, "nope"],
    });
    expect(resolved.map((s) => s.id)).toEqual([a.id, b.id]);
    expect((await listAppliedInvoiceCustomSections(h.deps, org)).map((s) => s.code)).toEqual(["b", "c"]);
  });

  it("answers over gRPC: absent fields stay unchanged, explicit nulls clear, optional fields come back absent", async () => {
    const org = h.org();
    const server = await startGrpcServer({
      host: "127.0.0.1",
      port: 0,
      logger: silentLogger,
      bindings: [bind(Rpc.catalog.invoiceCustomSections, invoiceCustomSectionHandlers(h.deps))],
    });
    const client = new RpcClient(Rpc.catalog.invoiceCustomSections, `127.0.0.1:${server.port}`);
    try {
      const created = await client.call("CreateInvoiceCustomSection", {
        organization_id: org,
        invoice_custom_section: { name: "Bank", code: "bank", details: "IBAN", applied_to_organization: true },
      });
      expect(created.invoice_custom_section).toMatchObject({
        code: "bank",
        details: "IBAN",
        applied_to_organization: true,
        organization_id: org,
      });
      expect(created.invoice_custom_section?.description).toBeUndefined();
      const updated = await client.call("UpdateInvoiceCustomSection", {
        organization_id: org,
        code: "bank",
        invoice_custom_section: { name: "Bank 2", null_fields: ["details"] },
      });
      expect(updated.invoice_custom_section).toMatchObject({ name: "Bank 2", applied_to_organization: true });
      expect(updated.invoice_custom_section?.details).toBeUndefined();
      const applied = await client.call("ListAppliedInvoiceCustomSections", { organization_id: org });
      expect(applied.invoice_custom_sections).toHaveLength(1);
      await expect(
        client.call("GetInvoiceCustomSection", { organization_id: org, code: "nope" }),
      ).rejects.toMatchObject({
        code: "invoice_custom_section_not_found",
      });
    } finally {
      client.close();
      await server.shutdown();
    }
  });
});

describe("tax resolution against MongoDB", () => {
  it("resolves codes and ids to the organization's live taxes, each once", async () => {
    const [org, other] = [h.org(), h.org()];
    const vat = await createTax(h.deps, org, { name: "VAT", code: "vat", rate: "20" });
    const gst = await createTax(h.deps, org, { name: "GST", code: "gst", rate: "5" });
    await createTax(h.deps, org, { name: "Old", code: "old", rate: "1" });
    await deleteTax(h.deps, org, "old");
    await createTax(h.deps, other, { name: "Theirs", code: "theirs", rate: "3" });
    const found = await resolveTaxes(h.deps, org, {
      codes: ["vat", "vat", "old", "theirs", "nope"],
      ids: [vat.id, gst.id],
    });
    expect(found.map((t) => t.id).sort()).toEqual([vat.id, gst.id].sort());
    expect(await resolveTaxes(h.deps, other, { codes: ["vat"], ids: [vat.id] })).toEqual([]);
  });
});
