import { Router, type Response } from "express";
import type { InvoiceDocumentRpc } from "@billing/contracts";
import { verifyDocumentLink } from "@billing/documents";
import { AppError } from "@billing/errors";
import type { RpcClient } from "@billing/grpc";
import { presentCreditNote } from "@billing/views";
import { idKey, pathParam, replySender, rpcOptions } from "../../http/rpc-route";
import { sendInvoice } from "../invoices/send-invoice";
import { signedLinkQuery } from "./validators";

type Pdf = { pdf: Buffer; file_name: string; sha256: string };

/** The PDF as stored: its bytes, named after the invoice number, its SHA-256 as the ETag (the same bytes at every request). */
function sendPdf(res: Response, doc: Pdf): void {
  res
    .status(200)
    .type("application/pdf")
    .set("Content-Disposition", `inline; filename="${doc.file_name.replace(/[^\w.-]/g, "_")}"`)
    .set("ETag", `"${doc.sha256}"`)
    .set("Cache-Control", "private, max-age=3600")
    .send(Buffer.from(doc.pdf));
}

/**
 * Invoice documents with the API key: `POST /invoices/{id}/download` (Lago: the file is generated
 * if needed, the invoice answered with its file_url) and `GET /invoices/{id}/pdf` (the bytes).
 */
export function invoiceDocumentsRouter(documents: RpcClient<InvoiceDocumentRpc>): Router {
  const router = Router();
  const sendCreditNote = replySender("credit_note", presentCreditNote);
  router.post("/invoices/:id/download", async (req, res) => {
    sendInvoice(res, await documents.call("DownloadInvoice", idKey(req), rpcOptions(req)));
  });
  router.get("/invoices/:id/pdf", async (req, res) =>
    sendPdf(res, await documents.call("GetInvoicePdf", idKey(req), rpcOptions(req))),
  );
  // credit notes, the same way (Lago: POST /credit_notes/{id}/download answers the credit note)
  router.post("/credit_notes/:id/download", async (req, res) => {
    sendCreditNote(res, await documents.call("DownloadCreditNote", idKey(req), rpcOptions(req)));
  });
  router.get("/credit_notes/:id/pdf", async (req, res) =>
    sendPdf(res, await documents.call("GetCreditNotePdf", idKey(req), rpcOptions(req))),
  );
  return router;
}

/**
 * The invoices' and credit notes' file_url: `GET /documents/{invoice|credit_note}/{organization_id}/{id}.pdf?expires=&signature=`,
 * served without an API key when the HMAC signature (under DOCUMENT_LINK_SECRET, shared with the
 * invoicing service that signs them) matches and the link has not expired (on the real clock).
 * A forged or altered link → 403 document_link_invalid, an expired one → 403 document_link_expired,
 * both as Lago's JSON error body; with no secret configured every link is refused.
 */
export function signedDocumentsRouter(documents: RpcClient<InvoiceDocumentRpc>, secret?: string): Router {
  const router = Router();
  router.get("/documents/:kind/:organization_id/:file", async (req, res) => {
    const kind = pathParam(req, "kind");
    const file = /^(.+)\.pdf$/.exec(pathParam(req, "file"));
    if ((kind !== "invoice" && kind !== "credit_note") || !file) throw AppError.notFound("document");
    // a link without its expiry or signature, or with malformed ones, is as invalid as a forged one
    const query = signedLinkQuery.safeParse(req.query);
    const link = query.success
      ? ({ kind, organization_id: pathParam(req, "organization_id"), id: file[1]!, ...query.data } as const)
      : null;
    const check =
      secret && link
        ? verifyDocumentLink(secret, link, Math.floor(Date.now() / 1000))
        : ({ ok: false, reason: "invalid_signature" } as const);
    if (!check.ok)
      throw new AppError("forbidden", check.reason === "expired" ? "document_link_expired" : "document_link_invalid");
    const ref = { organization_id: link!.organization_id, id: link!.id };
    sendPdf(res, await documents.call(kind === "invoice" ? "GetInvoicePdf" : "GetCreditNotePdf", ref, rpcOptions(req)));
  });
  return router;
}
