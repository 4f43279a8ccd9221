import type { Envelope } from "@billing/bus";
import { docModel, isDuplicateKeyError, type DocCollection, type DocModel } from "@billing/mongo";
import { Schema, type Connection } from "mongoose";

/** A stored document: the PDF as first generated, kept for good (`documents` collection). */
export interface StoredDocument {
  /** `invoice:<invoice id>` (a credit note's will be `credit_note:<id>`) */
  id: string;
  organization_id: string;
  kind: "invoice" | "credit_note";
  owner_id: string;
  file_name: string;
  pdf: Buffer;
  sha256: string;
  created_at: Date;
}

interface DocumentDoc extends Omit<StoredDocument, "id" | "pdf"> {
  _id: string;
  pdf: Buffer | { buffer: Buffer };
}

const documentSchema = new Schema<DocumentDoc>(
  {
    _id: String,
    organization_id: String,
    kind: String,
    owner_id: String,
    file_name: String,
    pdf: Buffer,
    sha256: String,
    created_at: Date,
  },
  { versionKey: false, collection: "documents" },
);

export const documentId = (kind: StoredDocument["kind"], ownerId: string) => `${kind}:${ownerId}`;

/** What the owners of documents (invoices, credit notes) have: the flag of their first PDF's announcement and an outbox. */
export interface AnnouncedDoc {
  _id: string;
  document_announced?: boolean;
  outbox?: Envelope[];
}

/**
 * Announces an invoice's or a credit note's first PDF once: its `document_announced` flag and the
 * events in one conditional write on the owner's own document (into its outbox); false when it was
 * announced already. Shared by both owners' repositories.
 */
export async function announceDocumentOnce(
  owners: DocCollection<AnnouncedDoc>,
  ownerId: string,
  events: readonly Envelope[],
): Promise<boolean> {
  const res = await owners.updateOne(
    { _id: ownerId, document_announced: { $ne: true } },
    { $set: { document_announced: true }, $push: { outbox: { $each: [...events] } } },
  );
  return res.modifiedCount === 1;
}

/**
 * Documents keyed by `_id` = kind:owner (one read, fast on every server). Stored once: a second
 * writer (a retry, another replica) loses on the duplicate key and gets the stored one, so each
 * invoice has exactly one document whoever generated it first. A PDF stays far below MongoDB's
 * 16 MB document limit (about 0.7 KB per fee line).
 */
export class DocumentRepository {
  private readonly model: DocModel<DocumentDoc>;

  constructor(connection: Connection) {
    this.model = docModel(connection, "InvoicingDocument", documentSchema, { reuse: true });
  }

  async find(organizationId: string, id: string): Promise<StoredDocument | null> {
    const doc = await this.model.findOne({ _id: id }).lean<DocumentDoc>();
    return doc && doc.organization_id === organizationId ? storedOf(doc) : null;
  }

  /** Stores `document` unless one is stored already; answers the one kept. */
  async storeOnce(document: StoredDocument): Promise<StoredDocument> {
    const { id, ...rest } = document;
    try {
      await this.model.create([{ _id: id, ...rest }]);
      return document;
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      const kept = await this.find(document.organization_id, id);
      if (!kept) throw err;
      return kept;
    }
  }
}

function storedOf(doc: DocumentDoc): StoredDocument {
  const { _id, pdf, ...rest } = doc;
  // a lean read gives BSON Binary ({ buffer }) for a Buffer field
  const bytes = Buffer.isBuffer(pdf) ? pdf : Buffer.from((pdf as { buffer: Buffer }).buffer);
  return { id: _id, pdf: bytes, ...rest };
}
