import { describe, expect, it } from "vitest";
import { documentSignature } from "@billing/documents";
import { hasPoppler, pdfText, pdfToPngs } from "../../../libs/documents/src/poppler";
import { advanceClock, scenarioPlatform } from "../../support/sandbox";
import { SHARED_DOCUMENT_LINK_SECRET } from "../../support/shared-platform";
import {
  customer,
  events,
  invoicesOf,
  metric,
  ok,
  plan,
  send,
  standard,
  subscribe,
  tax,
  type Api,
  type Json,
} from "../../support/scenario";

// Invoice PDFs end to end: a sandbox organization's January invoice (100.00 a month, 7 calls at
// 0.50, VAT 20 %) is finalized on Feb 1; POST /invoices/{id}/download generates its PDF and answers
// the invoice with file_url, a signed link the gateway serves without the API key; the file is
// kept (the same bytes by the API key and by the link, every time); a forged or expired link is
// refused with Lago's JSON error body; another organization cannot read it.
const SECRET = SHARED_DOCUMENT_LINK_SECRET;
const platform = scenarioPlatform("scn_documents", { DOCUMENT_LINK_SECRET: SECRET });
const plain = (s: string) => s.replace(/[\u202f\u00a0]/g, " ");

async function januaryInvoice(as: Api): Promise<Json> {
  await tax(as, "vat", "20");
  const calls = await metric(as, "calls");
  await plan(as, "starter", { amount_cents: 10_000, tax_codes: ["vat"], charges: [standard(calls, "0.5")] });
  await subscribe(as, "acme", "starter", "sub_1");
  await send(as, events(7, "sub_1", "calls", "2024-01-20T00:00:00Z"));
  await advanceClock(as, "2024-02-01T00:30:00Z");
  const [invoice] = await invoicesOf(as, "acme");
  expect(invoice).toMatchObject({ status: "finalized", total_amount_cents: 12_420 });
  return invoice!;
}

const fetchBytes = async (url: string, headers: Record<string, string> = {}) => {
  const res = await fetch(url, { headers });
  return {
    status: res.status,
    type: res.headers.get("content-type") ?? "",
    etag: res.headers.get("etag"),
    bytes: Buffer.from(await res.arrayBuffer()),
  };
};

describe("invoice documents", () => {
  it("generates the PDF of a finalized invoice once, served by the API key and by its signed link, the same bytes every time", async () => {
    const { as, api_key } = await platform.sandbox("Invoice PDF", "2024-01-01T00:00:00Z");
    const acme = await customer(as, "acme", {
      name: "Hélène Dupré",
      address_line1: "3 place de l'Opéra",
      zipcode: "75009",
      city: "Paris",
      country: "FR",
      tax_identification_number: "FR99123456789",
      billing_configuration: { document_locale: "fr" },
    });
    await ok(
      as("PUT", `/billing_entities/${acme.billing_entity_code}`, {
        billing_entity: {
          name: "Société Électrique",
          legal_name: "Société Électrique SAS",
          address_line1: "12 rue de la Paix",
          city: "Paris",
          zipcode: "75002",
          tax_identification_number: "FR11222333444",
          invoice_footer: "Merci pour votre confiance — à bientôt.",
        },
      }),
    );
    const invoice = await januaryInvoice(as);

    const downloaded = (await ok(as("POST", `/invoices/${invoice.svc_id}/download`))).invoice as Json;
    expect(downloaded).toMatchObject({ svc_id: invoice.svc_id, status: "finalized", total_amount_cents: 12_420 });
    const fileUrl = String(downloaded.file_url);
    expect(fileUrl).toMatch(
      new RegExp(`/api/v1/documents/invoice/[^/]+/${invoice.svc_id}\\.pdf\\?expires=\\d+&signature=[\\w-]{43}$`),
    );
    // reading the invoice again shows the same link (its expiry is rounded to the hour)
    expect(((await ok(as("GET", `/invoices/${invoice.svc_id}`))).invoice as Json).file_url).toBe(fileUrl);

    const byLink = await fetchBytes(fileUrl);
    expect(byLink.status).toBe(200);
    expect(byLink.type).toBe("application/pdf");
    expect(byLink.bytes.subarray(0, 5).toString()).toBe("%PDF-");
    const byLinkAgain = await fetchBytes(fileUrl);
    expect(byLinkAgain.bytes.equals(byLink.bytes)).toBe(true);
    const viaApi = await fetchBytes(`${new URL(fileUrl).origin}/api/v1/invoices/${invoice.svc_id}/pdf`, {
      authorization: `Bearer ${api_key}`,
    });
    expect(viaApi).toMatchObject({ status: 200, type: "application/pdf", etag: byLink.etag });
    expect(viaApi.bytes.equals(byLink.bytes)).toBe(true);
    // without the key, the API route is refused
    expect((await fetchBytes(`${new URL(fileUrl).origin}/api/v1/invoices/${invoice.svc_id}/pdf`)).status).toBe(401);
    // a second download answers the stored file (not a new one)
    await ok(as("POST", `/invoices/${invoice.svc_id}/download`));
    expect((await fetchBytes(fileUrl)).bytes.equals(byLink.bytes)).toBe(true);
    expect(byLink.etag).toBe(byLinkAgain.etag);

    if (hasPoppler) {
      expect(pdfToPngs(byLink.bytes).length).toBeGreaterThan(0);
      const text = plain(pdfText(byLink.bytes));
      for (const s of [
        "Facture",
        "Société Électrique SAS",
        "12 rue de la Paix",
        "N° de TVA: FR11222333444",
        "Hélène Dupré",
        "3 place de l'Opéra",
        "100,00 €",
        "3,50 €",
        "103,50 €",
        "VAT (20 % sur 103,50 €)",
        "20,70 €",
        "124,20 €",
        "Total à payer",
        "Merci pour votre confiance — à bientôt.",
      ])
        expect(text, text).toContain(s);
      // text extraction may split a number at a glyph gap: compared without spaces
      expect(text.replace(/\s+/g, ""), text).toContain(String(invoice.number).replace(/\s+/g, ""));
    }
  });

  it("keeps the custom sections an invoice was finalized with, and shows the subscriptions it bills, as Lago's invoice does", async () => {
    const { as } = await platform.sandbox("Invoice sections", "2024-01-01T00:00:00Z");
    await ok(
      as("POST", "/invoice_custom_sections", {
        invoice_custom_section: {
          name: "EU bank details",
          code: "eu_bank",
          details: "IBAN FR76 3000 1111",
          display_name: "Bank details",
        },
      }),
    );
    await customer(as, "acme", { invoice_custom_section_codes: ["eu_bank"] });
    const invoice = await januaryInvoice(as);
    expect(invoice.applied_invoice_custom_sections).toEqual([
      {
        svc_id: expect.any(String),
        svc_invoice_id: invoice.svc_id,
        code: "eu_bank",
        details: "IBAN FR76 3000 1111",
        display_name: "Bank details",
        created_at: "2024-02-01T00:00:00.000Z", // finalized at the billing instant
      },
    ]);
    // the subscription as it is now (the clock's February), without its plan
    expect(invoice.subscriptions).toEqual([
      expect.objectContaining({
        external_id: "sub_1",
        external_customer_id: "acme",
        plan_code: "starter",
        status: "active",
        billing_time: "calendar",
        started_at: "2024-01-01T00:00:00.000Z",
        current_billing_period_started_at: "2024-02-01T00:00:00.000Z",
        current_billing_period_ending_at: "2024-02-29T23:59:59.999Z",
        on_termination_invoice: "generate",
      }),
    ]);
    expect(invoice.subscriptions[0]).not.toHaveProperty("plan");

    // the section changes after: the finalized invoice, its JSON and its document, keep what it was finalized with
    await ok(
      as("PUT", "/invoice_custom_sections/eu_bank", { invoice_custom_section: { details: "IBAN DE89 3704 0044" } }),
    );
    const again = (await ok(as("GET", `/invoices/${invoice.svc_id}`))).invoice as Json;
    expect(again.applied_invoice_custom_sections).toEqual(invoice.applied_invoice_custom_sections);
    await ok(as("POST", `/invoices/${invoice.svc_id}/download`));
    if (hasPoppler) {
      const pdf = await fetchBytes(
        String(((await ok(as("GET", `/invoices/${invoice.svc_id}`))).invoice as Json).file_url),
      );
      const text = plain(pdfText(pdf.bytes));
      expect(text, text).toContain("IBAN FR76 3000 1111");
      expect(text, text).not.toContain("DE89");
    }
  });

  it("shows a draft the custom sections that apply when it is made, applies them again on refresh, and keeps those it is finalized with", async () => {
    // acme has a 3-day grace period: January's invoice is a draft on Feb 1, finalized by hand
    const { as } = await platform.sandbox("Draft sections", "2024-01-01T00:00:00Z");
    await ok(
      as("POST", "/invoice_custom_sections", {
        invoice_custom_section: {
          name: "EU bank details",
          code: "eu_bank",
          details: "IBAN FR76 3000 1111",
          display_name: "Bank details",
        },
      }),
    );
    await customer(as, "acme", {
      invoice_custom_section_codes: ["eu_bank"],
      billing_configuration: { invoice_grace_period: 3 },
    });
    await plan(as, "starter", { amount_cents: 10_000 });
    await subscribe(as, "acme", "starter", "sub_1");
    await advanceClock(as, "2024-02-01T00:30:00Z");
    const [draft] = await invoicesOf(as, "acme");
    const applied = (details: string, created_at: string) => [
      {
        svc_id: expect.any(String),
        svc_invoice_id: draft!.svc_id,
        code: "eu_bank",
        details,
        display_name: "Bank details",
        created_at,
      },
    ];
    expect(draft).toMatchObject({
      status: "draft",
      applied_invoice_custom_sections: applied("IBAN FR76 3000 1111", "2024-02-01T00:00:00.000Z"),
    });

    // the section changes: the draft keeps what it was made with until it is refreshed (Lago applies them again then)
    await ok(
      as("PUT", "/invoice_custom_sections/eu_bank", { invoice_custom_section: { details: "IBAN DE89 3704 0044" } }),
    );
    expect(
      ((await ok(as("GET", `/invoices/${draft!.svc_id}`))).invoice as Json).applied_invoice_custom_sections,
    ).toEqual(draft!.applied_invoice_custom_sections);
    const refreshed = (await ok(as("PUT", `/invoices/${draft!.svc_id}/refresh`, {}))).invoice as Json;
    expect(refreshed.applied_invoice_custom_sections).toEqual(applied("IBAN DE89 3704 0044", expect.any(String)));
    // finalized: the sections that apply then, kept after
    const finalized = (await ok(as("PUT", `/invoices/${draft!.svc_id}/finalize`))).invoice as Json;
    expect(finalized).toMatchObject({
      status: "finalized",
      applied_invoice_custom_sections: applied("IBAN DE89 3704 0044", expect.any(String)),
    });
    await ok(
      as("PUT", "/invoice_custom_sections/eu_bank", { invoice_custom_section: { details: "IBAN IT60 X054 2811" } }),
    );
    expect(
      ((await ok(as("GET", `/invoices/${draft!.svc_id}`))).invoice as Json).applied_invoice_custom_sections,
    ).toEqual(finalized.applied_invoice_custom_sections);
  });

  it("shows a subscription's own custom sections instead of its customer's, none when it skips them, and a one-off invoice's own choice", async () => {
    // acme chose eu_bank; sub_us chose us_bank (its invoices show that instead); sub_quiet skips
    // sections (its invoices show none); a one-off invoice names legal, another skips them
    const { as } = await platform.sandbox("Resource sections", "2024-01-01T00:00:00Z");
    const section = (code: string, details: string) =>
      ok(
        as("POST", "/invoice_custom_sections", {
          invoice_custom_section: { name: code.toUpperCase(), code, details, display_name: code },
        }),
      );
    await section("eu_bank", "IBAN FR76 3000 1111");
    await section("us_bank", "ABA 021000021");
    await section("legal", "Registered in Paris");
    await customer(as, "acme", { invoice_custom_section_codes: ["eu_bank"] });
    await customer(as, "globex", { invoice_custom_section_codes: ["eu_bank"] });
    await plan(as, "starter", { amount_cents: 10_000 });
    const us = await subscribe(as, "acme", "starter", "sub_us", {
      invoice_custom_section: { invoice_custom_section_codes: ["us_bank", "nope"] },
    });
    expect(us.applied_invoice_custom_sections).toEqual([
      {
        svc_id: expect.any(String),
        invoice_custom_section_id: expect.any(String),
        created_at: "2024-01-01T00:00:00.000Z",
        invoice_custom_section: expect.objectContaining({ code: "us_bank", details: "ABA 021000021" }),
      },
    ]);
    const quiet = await subscribe(as, "globex", "starter", "sub_quiet", {
      invoice_custom_section: { skip_invoice_custom_sections: true, invoice_custom_section_codes: ["legal"] },
    });
    expect(quiet.applied_invoice_custom_sections).toEqual([]);
    // a later update without the flag: a skipping subscription ignores codes (Lago's implicit rule)
    const stillQuiet = (
      await ok(
        as("PUT", "/subscriptions/sub_quiet", {
          subscription: { invoice_custom_section: { invoice_custom_section_codes: ["legal"] } },
        }),
      )
    ).subscription as Json;
    expect(stillQuiet.applied_invoice_custom_sections).toEqual([]);

    await advanceClock(as, "2024-02-01T00:30:00Z");
    const [acmeInvoice] = await invoicesOf(as, "acme");
    expect((acmeInvoice!.applied_invoice_custom_sections as Json[]).map((s) => [s.code, s.details])).toEqual([
      ["us_bank", "ABA 021000021"],
    ]);
    const [globexInvoice] = await invoicesOf(as, "globex");
    expect(globexInvoice).toMatchObject({ status: "finalized", applied_invoice_custom_sections: [] });

    // the subscription's choice replaced: its record kept for a section chosen again, the new one added
    const both = (
      await ok(
        as("PUT", "/subscriptions/sub_us", {
          subscription: { invoice_custom_section: { invoice_custom_section_codes: ["legal", "us_bank"] } },
        }),
      )
    ).subscription as Json;
    const applied = both.applied_invoice_custom_sections as Json[];
    expect(applied.map((a) => (a.invoice_custom_section as Json).code)).toEqual(["us_bank", "legal"]);
    expect(applied[0]!.svc_id).toBe((us.applied_invoice_custom_sections as Json[])[0]!.svc_id);
    // GET shows the same
    expect(
      ((await ok(as("GET", "/subscriptions/sub_us"))).subscription as Json).applied_invoice_custom_sections,
    ).toEqual(applied);

    // one-off invoices: its own codes, or none when skipped, or the customer's
    await ok(
      as("POST", "/add_ons", { add_on: { name: "Setup", code: "setup", amount_cents: 5_000, amount_currency: "EUR" } }),
    );
    const oneOff = async (choice?: Json) =>
      (
        await ok(
          as("POST", "/invoices", {
            invoice: {
              external_customer_id: "acme",
              fees: [{ add_on_code: "setup" }],
              ...(choice ? { invoice_custom_section: choice } : {}),
            },
          }),
        )
      ).invoice as Json;
    const codesOf = (invoice: Json) => (invoice.applied_invoice_custom_sections as Json[]).map((s) => s.code);
    expect(codesOf(await oneOff({ invoice_custom_section_codes: ["legal"] }))).toEqual(["legal"]);
    expect(codesOf(await oneOff({ skip_invoice_custom_sections: true }))).toEqual([]);
    expect(codesOf(await oneOff())).toEqual(["eu_bank"]);
  });

  it("shows a top-up invoice the sections of its wallet transaction, else of its wallet or the rule that made it, as Lago's invoice_custom_section_resource", async () => {
    const { as } = await platform.sandbox("Wallet sections", "2024-01-01T00:00:00Z");
    for (const [code, details] of [
      ["eu_bank", "IBAN FR76"],
      ["us_bank", "ABA 0210"],
      ["legal", "Registered in Paris"],
    ]) {
      await ok(
        as("POST", "/invoice_custom_sections", {
          invoice_custom_section: { name: code!.toUpperCase(), code, details, display_name: code },
        }),
      );
    }
    await customer(as, "acme", { currency: "EUR", invoice_custom_section_codes: ["eu_bank"] });
    const wallet = (
      await ok(
        as("POST", "/wallets", {
          wallet: {
            external_customer_id: "acme",
            currency: "EUR",
            rate_amount: "1",
            paid_credits: "10",
            invoice_custom_section: { invoice_custom_section_codes: ["us_bank"] },
            recurring_transaction_rules: [
              {
                trigger: "interval",
                interval: "monthly",
                paid_credits: "5",
                invoice_custom_section: { invoice_custom_section_codes: ["legal"] },
              },
            ],
          },
        }),
      )
    ).wallet as Json;
    const sectionCodes = (list: unknown) => (list as Json[]).map((a) => (a.invoice_custom_section as Json).code);
    expect(sectionCodes(wallet.applied_invoice_custom_sections)).toEqual(["us_bank"]);
    expect(sectionCodes((wallet.recurring_transaction_rules as Json[])[0]!.applied_invoice_custom_sections)).toEqual([
      "legal",
    ]);
    const invoiceOf = async (tx: Json) => (await ok(as("GET", `/invoices/${tx.svc_invoice_id}`))).invoice as Json;
    const shown = async (tx: Json) =>
      ((await invoiceOf(tx)).applied_invoice_custom_sections as Json[]).map((s) => s.code);

    // the wallet's first purchase chose nothing of its own: the wallet's section
    const [first] = (await ok(as("GET", `/wallets/${wallet.svc_id}/wallet_transactions?transaction_status=purchased`)))
      .wallet_transactions as Json[];
    expect(await shown(first!)).toEqual(["us_bank"]);
    // a transaction's own choice wins; one that skips sections shows none
    const buy = async (choice: Json) =>
      (
        (
          await ok(
            as("POST", "/wallet_transactions", {
              wallet_transaction: { wallet_id: wallet.svc_id, paid_credits: "1", invoice_custom_section: choice },
            }),
          )
        ).wallet_transactions as Json[]
      )[0]!;
    const own = await buy({ invoice_custom_section_codes: ["legal"] });
    expect(sectionCodes(own.applied_invoice_custom_sections)).toEqual(["legal"]);
    expect(await shown(own)).toEqual(["legal"]);
    const quiet = await buy({ skip_invoice_custom_sections: true });
    expect(await shown(quiet)).toEqual([]);
    // the wallet changes its choice: it skips sections now; a plain purchase shows none
    const updated = (
      await ok(
        as("PUT", `/wallets/${wallet.svc_id}`, {
          wallet: { invoice_custom_section: { skip_invoice_custom_sections: true } },
        }),
      )
    ).wallet as Json;
    expect(updated.applied_invoice_custom_sections).toEqual([]);
    expect(await shown(await buy({}))).toEqual([]);

    // the rule fires on Feb 1: its purchase carries the rule's section
    await advanceClock(as, "2024-02-01T00:30:00Z");
    const purchases = (
      await ok(as("GET", `/wallets/${wallet.svc_id}/wallet_transactions?transaction_status=purchased`))
    ).wallet_transactions as Json[];
    const fromRule = purchases.find((t) => t.source === "interval")!;
    expect(sectionCodes(fromRule.applied_invoice_custom_sections)).toEqual(["legal"]);
    expect(await shown(fromRule)).toEqual(["legal"]);
  });

  it("generates a credit note's PDF once, served by the API key and by its signed link, the same bytes every time, showing its total", async () => {
    const { as, api_key } = await platform.sandbox("Credit note PDF", "2024-01-01T00:00:00Z");
    await customer(as, "acme", {
      name: "Hélène Dupré",
      country: "FR",
      billing_configuration: { document_locale: "fr" },
    });
    const invoice = await januaryInvoice(as);
    const fees = ((await ok(as("GET", `/invoices/${invoice.svc_id}`))).invoice as Json).fees as Json[];
    const subscriptionFee = fees.find((f) => f.amount_cents === 10_000)!;
    // 10.00 of the 100.00 subscription fee, VAT 20 %: 12.00 credited
    const note = (
      await ok(
        as("POST", "/credit_notes", {
          credit_note: {
            invoice_id: invoice.svc_id,
            reason: "other",
            credit_amount_cents: 1_200,
            items: [{ fee_id: subscriptionFee.svc_id, amount_cents: 1_000 }],
          },
        }),
      )
    ).credit_note as Json;
    expect(note).toMatchObject({ total_amount_cents: 1_200, taxes_amount_cents: 200 });

    const downloaded = (await ok(as("POST", `/credit_notes/${note.svc_id}/download`))).credit_note as Json;
    expect(downloaded).toMatchObject({ svc_id: note.svc_id, number: note.number, total_amount_cents: 1_200 });
    const fileUrl = String(downloaded.file_url);
    expect(fileUrl).toMatch(
      new RegExp(`/api/v1/documents/credit_note/[^/]+/${note.svc_id}\\.pdf\\?expires=\\d+&signature=[\\w-]{43}$`),
    );
    expect(((await ok(as("GET", `/credit_notes/${note.svc_id}`))).credit_note as Json).file_url).toBe(fileUrl);

    // the signed link, without the key
    const byLink = await fetchBytes(fileUrl);
    expect(byLink).toMatchObject({ status: 200, type: "application/pdf" });
    expect(byLink.bytes.subarray(0, 5).toString()).toBe("%PDF-");
    expect((await fetchBytes(fileUrl)).bytes.equals(byLink.bytes)).toBe(true);
    const viaApi = await fetchBytes(`${new URL(fileUrl).origin}/api/v1/credit_notes/${note.svc_id}/pdf`, {
      authorization: `Bearer ${api_key}`,
    });
    expect(viaApi).toMatchObject({ status: 200, type: "application/pdf", etag: byLink.etag });
    expect(viaApi.bytes.equals(byLink.bytes)).toBe(true);
    expect((await fetchBytes(`${new URL(fileUrl).origin}/api/v1/credit_notes/${note.svc_id}/pdf`)).status).toBe(401);
    // a second download keeps the stored file
    await ok(as("POST", `/credit_notes/${note.svc_id}/download`));
    expect((await fetchBytes(fileUrl)).bytes.equals(byLink.bytes)).toBe(true);

    // another organization reaches neither the note nor its file
    const other = await platform.sandbox("Another organization (credit note)", "2024-01-01T00:00:00Z");
    expect(await other.as("POST", `/credit_notes/${note.svc_id}/download`)).toMatchObject({
      status: 404,
      body: { code: "credit_note_not_found" },
    });
    expect(
      (
        await fetchBytes(`${new URL(fileUrl).origin}/api/v1/credit_notes/${note.svc_id}/pdf`, {
          authorization: `Bearer ${other.api_key}`,
        })
      ).status,
    ).toBe(404);

    if (hasPoppler) {
      const text = plain(pdfText(byLink.bytes));
      // text extraction may split a number at a glyph gap ("CR -B503-…"): the numbers are compared without spaces
      for (const s of [String(note.number), String(invoice.number)])
        expect(text.replace(/\s+/g, ""), text).toContain(s.replace(/\s+/g, ""));
      for (const s of ["Hélène Dupré", "10,00 €", "2,00 €", "12,00 €"]) expect(text, text).toContain(s);
    }
  });

  it("refuses a forged, altered or expired link with a JSON 403, and another organization's key", async () => {
    const as = await platform.story("Signed links", "2024-01-01T00:00:00Z");
    const invoice = await januaryInvoice(as);
    const fileUrl = new URL(
      String(((await ok(as("POST", `/invoices/${invoice.svc_id}/download`))).invoice as Json).file_url),
    );
    const organizationId = fileUrl.pathname.split("/")[5]!;
    const signature = fileUrl.searchParams.get("signature")!;
    const expires = Number(fileUrl.searchParams.get("expires"));
    const refused = async (url: URL | string, code: string) => {
      const res = await fetch(url);
      expect(res.status).toBe(403);
      expect(res.headers.get("content-type")).toMatch(/application\/json/);
      expect(await res.json()).toEqual({ status: 403, error: "Forbidden", code });
    };
    const with_ = (change: (u: URL) => void) => {
      const u = new URL(fileUrl);
      change(u);
      return u;
    };
    await refused(
      with_((u) => u.searchParams.set("signature", (signature.startsWith("A") ? "B" : "A") + signature.slice(1))),
      "document_link_invalid",
    );
    await refused(
      with_((u) => u.searchParams.set("expires", String(expires + 3600))),
      "document_link_invalid",
    );
    await refused(
      with_((u) => {
        u.pathname = u.pathname.replace(`/${organizationId}/`, "/another_org/");
      }),
      "document_link_invalid",
    );
    // a link signed with the platform's secret that expired a minute ago
    const past = Math.floor(Date.now() / 1000) - 60;
    const ref = { kind: "invoice", organization_id: organizationId, id: String(invoice.svc_id) } as const;
    await refused(
      with_((u) => {
        u.searchParams.set("expires", String(past));
        u.searchParams.set("signature", documentSignature(SECRET, ref, past));
      }),
      "document_link_expired",
    );
    // one without its signature or with a malformed expiry: the same
    await refused(
      with_((u) => u.searchParams.delete("signature")),
      "document_link_invalid",
    );
    await refused(
      with_((u) => u.searchParams.set("expires", "soon")),
      "document_link_invalid",
    );

    // another organization's API key does not reach the invoice or its file
    const other = await platform.sandbox("Another organization", "2024-01-01T00:00:00Z");
    const res = await fetch(`${fileUrl.origin}/api/v1/invoices/${invoice.svc_id}/pdf`, {
      headers: { authorization: `Bearer ${other.api_key}` },
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ status: 404, error: "Not Found", code: "invoice_not_found" });
    expect(await other.as("POST", `/invoices/${invoice.svc_id}/download`)).toMatchObject({
      status: 404,
      body: { code: "invoice_not_found" },
    });
  });
});
