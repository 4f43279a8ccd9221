import type { Connection } from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderCreditNotePdf, renderInvoicePdf } from "@billing/documents";
import { silentLogger } from "@billing/logger";
import { connectMongo, initModels } from "@billing/mongo";
import { infraUrls, uniqueName, dropTestDatabase } from "@billing/testkit";
import { creditNoteDocument } from "../src/domain/credit-note-document";
import { creditNoteFixture, documentPartiesFixture, finalizedInvoiceFixture } from "../src/domain/document-fixtures";
import { invoiceDocument } from "../src/domain/invoice-document";
import type { DocumentParties } from "../src/peers/document-parties";
import { CreditNoteRepository } from "../src/persistence/credit-note-repository";
import { DocumentRepository } from "../src/persistence/document-repository";
import type { InvoiceRepository } from "../src/persistence/invoice-repository";
import type { DocumentDeps } from "../src/use-cases/documents/deps";
import { creditNotePdf, downloadCreditNote, ensureCreditNotePdf } from "../src/use-cases/documents/credit-note-pdf";
import { ensureInvoicePdf } from "../src/use-cases/documents/invoice-pdf";

// The documents collection on the real MongoDB test server: an invoice's PDF is stored once, whoever
// generates it first (two replicas at once, a retry), and every later request answers those bytes.
// The customer service is a stand-in (a peer); the database is real.
let connection: Connection;

beforeAll(async () => {
  connection = await connectMongo({ url: infraUrls().mongoUrl, dbName: uniqueName("invoicing_documents") });
});
afterAll(async () => {
  await dropTestDatabase(connection);
  await connection.close();
});

/** A replica's documents use case: its own repository on the shared database, and a customer service stand-in answering `entityName`. */
async function replica(entityName: string, calls: { count: number }): Promise<DocumentDeps> {
  const documents = new DocumentRepository(connection);
  await initModels(connection);
  const parties: DocumentParties = {
    get: async () => {
      calls.count++;
      const { customer, entity } = documentPartiesFixture("fr");
      return { customer, entity: { ...entity, name: entityName } };
    },
    sections: async () => [],
    resolveSections: async () => [],
    close: () => undefined,
  };
  // a credit note's invoice (its fees) is the fixture's; the notes themselves are stored for real
  const invoices = { find: async () => finalizedInvoiceFixture() } as unknown as InvoiceRepository;
  return { invoices, creditNotes: new CreditNoteRepository(connection), documents, parties, logger: silentLogger };
}

describe("invoice documents, stored", () => {
  it("stores one document when two replicas generate it at once; both answer the kept bytes, regenerating gives them again", async () => {
    const calls = { count: 0 };
    const invoice = finalizedInvoiceFixture({ id: "inv_concurrent" });
    const [a, b] = await Promise.all([
      ensureInvoicePdf(await replica("Électricité Générale", calls), invoice),
      ensureInvoicePdf(await replica("Électricité Générale", calls), invoice),
    ]);
    expect(a.pdf.equals(b.pdf)).toBe(true);
    expect(a.sha256).toBe(b.sha256);
    expect(await connection.collection("documents").countDocuments({ owner_id: "inv_concurrent" })).toBe(1);
    // rendering the same invoice again gives the same bytes (no time, no random id in the file)
    const { customer, entity } = documentPartiesFixture("fr");
    expect((await renderInvoicePdf(invoiceDocument(invoice, customer, entity))).equals(a.pdf)).toBe(true);
  });

  it("answers the stored document once kept, even after the issuer changed, without asking the customer service again", async () => {
    const calls = { count: 0 };
    const invoice = finalizedInvoiceFixture({ id: "inv_kept", number: "ACM-001-0002" });
    const first = await ensureInvoicePdf(await replica("Électricité Générale", calls), invoice);
    const later = await ensureInvoicePdf(await replica("Renamed Entity", calls), invoice);
    expect(later.pdf.equals(first.pdf)).toBe(true);
    expect(later).toMatchObject({
      id: "invoice:inv_kept",
      organization_id: "org_1",
      kind: "invoice",
      file_name: "ACM-001-0002.pdf",
    });
    expect(calls.count).toBe(1);
  });

  it("keeps organizations apart and refuses an invoice that is not finalized", async () => {
    const deps = await replica("Électricité Générale", { count: 0 });
    await ensureInvoicePdf(deps, finalizedInvoiceFixture({ id: "inv_org" }));
    expect(await deps.documents.find("org_2", "invoice:inv_org")).toBeNull();
    await expect(
      ensureInvoicePdf(deps, finalizedInvoiceFixture({ id: "inv_draft", status: "draft" })),
    ).rejects.toMatchObject({ kind: "not_allowed", code: "invoice_not_finalized" });
    expect(await connection.collection("documents").countDocuments({ owner_id: "inv_draft" })).toBe(0);
  });
});

describe("credit note documents, stored", () => {
  it("stores one document under credit_note:<id> when two replicas generate it at once; rendering again gives the same bytes", async () => {
    const calls = { count: 0 };
    const note = creditNoteFixture({ id: "cn_concurrent" });
    const [a, b] = await Promise.all([
      ensureCreditNotePdf(await replica("Électricité Générale", calls), note),
      ensureCreditNotePdf(await replica("Électricité Générale", calls), note),
    ]);
    expect(a.pdf.equals(b.pdf)).toBe(true);
    expect(a).toMatchObject({
      id: "credit_note:cn_concurrent",
      kind: "credit_note",
      owner_id: "cn_concurrent",
      file_name: "ACM-001-0001-CN001.pdf",
    });
    expect(await connection.collection("documents").countDocuments({ _id: "credit_note:cn_concurrent" } as never)).toBe(
      1,
    );
    const { customer, entity } = documentPartiesFixture("fr");
    expect(
      (await renderCreditNotePdf(creditNoteDocument(note, finalizedInvoiceFixture(), customer, entity))).equals(a.pdf),
    ).toBe(true);
  });

  it("answers the kept bytes for a stored note (download, then the PDF) without asking the customer service again, within its organization only", async () => {
    const calls = { count: 0 };
    const deps = await replica("Électricité Générale", calls);
    const note = creditNoteFixture({ id: "cn_kept", organization_id: "org_cn" });
    expect(await deps.creditNotes.insert(note, [])).toBe(true);
    expect(await downloadCreditNote(deps, "org_cn", note.id)).toMatchObject({
      id: note.id,
      number: "ACM-001-0001-CN001",
    });
    const first = await creditNotePdf(deps, "org_cn", note.id);
    const later = await creditNotePdf(await replica("Renamed Entity", calls), "org_cn", note.id);
    expect(later.pdf.equals(first.pdf)).toBe(true);
    expect(later.sha256).toBe(first.sha256);
    expect(calls.count).toBe(1);
    // another organization sees neither the note nor its document
    await expect(creditNotePdf(deps, "org_other", note.id)).rejects.toMatchObject({
      kind: "not_found",
      code: "credit_note_not_found",
    });
    await expect(downloadCreditNote(deps, "org_other", note.id)).rejects.toMatchObject({
      kind: "not_found",
      code: "credit_note_not_found",
    });
    expect(await deps.documents.find("org_other", `credit_note:${note.id}`)).toBeNull();
    expect(await connection.collection("documents").countDocuments({ owner_id: note.id })).toBe(1);
  });
});
