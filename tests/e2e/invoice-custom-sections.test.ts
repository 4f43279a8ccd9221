import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startE2E, type E2E } from "../support/platform";
import { api } from "../support/api";
import { openapiErrors } from "../support/openapi";

let e2e: E2E;
let asA: ReturnType<typeof api>;
let asB: ReturnType<typeof api>;

beforeAll(async () => {
  e2e = await startE2E("sections");
  asA = api(e2e.platform.baseUrl, (await e2e.organization("Acme Corp")).api_key);
  asB = api(e2e.platform.baseUrl, (await e2e.organization("Globex")).api_key);
});

afterAll(async () => {
  await e2e?.stop();
});

const section = (body: { invoice_custom_section: unknown }) =>
  openapiErrors("InvoiceCustomSectionObject", body.invoice_custom_section);
const unprocessable = (error_details: Record<string, string[]>) => ({
  status: 422,
  body: { status: 422, error: "Unprocessable Entity", code: "validation_errors", error_details },
});
const notFound = { status: 404, body: { status: 404, error: "Not Found", code: "invoice_custom_section_not_found" } };

describe("invoice custom sections end to end", () => {
  it("creates, reads, updates and deletes a section in Lago's shape", async () => {
    const created = await asA("POST", "/invoice_custom_sections", {
      invoice_custom_section: {
        name: "EU bank details",
        code: "eu_bank",
        details: "IBAN FR76 3000",
        display_name: "Bank details",
      },
    });
    expect(created.status).toBe(200);
    expect(section(created.body)).toEqual([]);
    expect(created.body.invoice_custom_section).toEqual({
      svc_id: expect.any(String),
      name: "EU bank details",
      code: "eu_bank",
      description: null,
      details: "IBAN FR76 3000",
      display_name: "Bank details",
      applied_to_organization: false,
      organization_id: expect.any(String),
      created_at: expect.any(String),
    });

    expect(await asA("GET", "/invoice_custom_sections/eu_bank")).toEqual(created);
    const updated = await asA("PUT", "/invoice_custom_sections/eu_bank", {
      invoice_custom_section: { description: "for EU customers", applied_to_organization: true, display_name: null },
    });
    expect(section(updated.body)).toEqual([]);
    expect(updated.body.invoice_custom_section).toMatchObject({
      svc_id: created.body.invoice_custom_section.svc_id,
      description: "for EU customers",
      applied_to_organization: true,
      display_name: null,
    });

    const deleted = await asA("DELETE", "/invoice_custom_sections/eu_bank");
    expect([deleted.status, deleted.body.invoice_custom_section.code]).toEqual([200, "eu_bank"]);
    expect(await asA("GET", "/invoice_custom_sections/eu_bank")).toEqual(notFound);
    expect(
      (await asA("POST", "/invoice_custom_sections", { invoice_custom_section: { name: "Again", code: "eu_bank" } }))
        .status,
    ).toBe(200);
  });

  it("answers 422 for a duplicate code or missing fields, 404 for an unknown code, 400 without the wrapper", async () => {
    await asA("POST", "/invoice_custom_sections", { invoice_custom_section: { name: "Legal", code: "legal" } });
    expect(
      await asA("POST", "/invoice_custom_sections", { invoice_custom_section: { name: "Other", code: "legal" } }),
    ).toEqual(unprocessable({ code: ["value_already_exist"] }));
    expect(await asA("POST", "/invoice_custom_sections", { invoice_custom_section: { details: "x" } })).toEqual(
      unprocessable({ name: ["value_is_mandatory"], code: ["value_is_mandatory"] }),
    );
    expect(
      await asA("PUT", "/invoice_custom_sections/legal", {
        invoice_custom_section: { applied_to_organization: "yes" },
      }),
    ).toEqual(unprocessable({ applied_to_organization: ["value_is_invalid"] }));
    expect(await asA("PUT", "/invoice_custom_sections/nope", { invoice_custom_section: { name: "x" } })).toEqual(
      notFound,
    );
    expect(await asA("DELETE", "/invoice_custom_sections/nope")).toEqual(notFound);
    expect(await asA("POST", "/invoice_custom_sections", { name: "x", code: "x" })).toEqual({
      status: 400,
      body: { status: 400, error: "BadRequest: param is missing or the value is empty: invoice_custom_section" },
    });
  });

  it("lists newest first with Lago's pagination meta", async () => {
    for (const code of ["s1", "s2"])
      await asA("POST", "/invoice_custom_sections", { invoice_custom_section: { name: code, code } });
    const page1 = await asA("GET", "/invoice_custom_sections?page=1&per_page=2");
    expect(page1.status).toBe(200);
    expect(page1.body.invoice_custom_sections.map((s: { code: string }) => s.code)).toEqual(["s2", "s1"]);
    expect(
      page1.body.invoice_custom_sections.flatMap((s: unknown) => openapiErrors("InvoiceCustomSectionObject", s)),
    ).toEqual([]);
    expect(openapiErrors("PaginationMeta", page1.body.meta)).toEqual([]);
    expect(page1.body.meta).toEqual({ current_page: 1, next_page: 2, prev_page: null, total_pages: 2, total_count: 4 });
    const page2 = await asA("GET", "/invoice_custom_sections?page=2&per_page=2");
    expect(page2.body.invoice_custom_sections.map((s: { code: string }) => s.code)).toEqual(["legal", "eu_bank"]);
  });

  it("keeps organizations apart", async () => {
    expect(await asB("GET", "/invoice_custom_sections/legal")).toEqual(notFound);
    expect(await asB("PUT", "/invoice_custom_sections/legal", { invoice_custom_section: { name: "mine" } })).toEqual(
      notFound,
    );
    expect((await asB("GET", "/invoice_custom_sections")).body).toEqual({
      invoice_custom_sections: [],
      meta: { current_page: 1, next_page: null, prev_page: null, total_pages: 0, total_count: 0 },
    });
    expect(
      (await asB("POST", "/invoice_custom_sections", { invoice_custom_section: { name: "Theirs", code: "legal" } }))
        .status,
    ).toBe(200);
    expect((await asA("GET", "/invoice_custom_sections/legal")).body.invoice_custom_section.name).toBe("Legal");
  });
});
