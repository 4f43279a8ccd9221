import { createHash } from "node:crypto";
import type { Envelope } from "@billing/bus";
import { documentId, type StoredDocument } from "../../persistence/document-repository";
import type { DocumentDeps } from "./deps";

export interface DocumentOwner {
  kind: StoredDocument["kind"];
  organization_id: string;
  /** the invoice's or credit note's id */
  id: string;
  file_name: string;
  /** the owner's issuing day (not now: the stored record reads the same whoever made it) */
  created_at: Date;
}

/**
 * An owner's PDF: the stored one, else `render()`ed now and stored once under `kind:id` (a
 * concurrent request or replica that stored first wins, and both answer its bytes). Shared by
 * invoices and credit notes.
 */
export async function storedOrRendered(
  deps: Pick<DocumentDeps, "documents">,
  owner: DocumentOwner,
  render: () => Promise<Buffer>,
): Promise<StoredDocument> {
  const key = documentId(owner.kind, owner.id);
  const stored = await deps.documents.find(owner.organization_id, key);
  if (stored) return stored;
  const pdf = await render();
  return deps.documents.storeOnce({
    id: key,
    organization_id: owner.organization_id,
    kind: owner.kind,
    owner_id: owner.id,
    file_name: owner.file_name,
    pdf,
    sha256: createHash("sha256").update(pdf).digest("hex"),
    created_at: owner.created_at,
  });
}

/**
 * Lago's invoice.generated and credit_note.generated: the owner's PDF exists. Sent once per owner
 * by its repository's conditional write (whoever stored the PDF, a concurrent request, or a later
 * one after a crash in between), then published. Without a publisher or a clock, nothing is announced.
 */
export async function announceFirstPdf(
  deps: Pick<DocumentDeps, "clock">,
  announcement: {
    events: (at: Date) => Envelope[];
    announce: (events: Envelope[]) => Promise<boolean>;
    publish?: (events: Envelope[]) => Promise<void>;
  },
): Promise<void> {
  if (!announcement.publish || !deps.clock) return;
  const events = announcement.events(deps.clock.now());
  if (await announcement.announce(events)) await announcement.publish(events);
}
