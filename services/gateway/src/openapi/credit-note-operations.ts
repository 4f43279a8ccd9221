import { z } from "zod";
import { creditNoteObject, estimatedCreditNoteObject, invoiceObject, paginationMeta } from "@billing/views";
import {
  creditNoteCreate,
  creditNoteEstimate,
  creditNoteListQuery,
  creditNoteUpdate,
  invoiceVoid,
  oneOffInvoiceCreate,
} from "../routes/credit-notes/validators";
import { pageParams } from "./inputs";
import type { Operation } from "./operations";

const rooted = (root: string, schema: z.ZodType) => z.object({ [root]: schema });
const listQuery = z.object({ ...pageParams.shape, ...creditNoteListQuery.shape });
const list = z.object({ credit_notes: z.array(creditNoteObject), meta: paginationMeta });
const TAG = "Invoices";

/** Credit notes and invoice voids (routes/credit-notes). */
export const creditNoteOperations: Operation[] = [
  {
    method: "post",
    path: "/credit_notes",
    operationId: "createCreditNote",
    summary: "Create a credit note",
    tag: TAG,
    description:
      "On a finalized invoice: items per fee; its credit part is a balance the customer's next invoices consume, oldest first.",
    body: rooted("credit_note", creditNoteCreate),
    response: rooted("credit_note", creditNoteObject),
  },
  {
    method: "post",
    path: "/credit_notes/estimate",
    operationId: "estimateCreditNote",
    summary: "Estimate a credit note",
    tag: TAG,
    description: "What a credit note on these items would amount to; nothing is stored.",
    body: rooted("credit_note", creditNoteEstimate),
    response: rooted("estimated_credit_note", estimatedCreditNoteObject),
  },
  {
    method: "get",
    path: "/credit_notes",
    operationId: "findAllCreditNotes",
    summary: "List credit notes",
    tag: TAG,
    query: listQuery,
    response: list,
  },
  {
    method: "get",
    path: "/customers/{external_customer_id}/credit_notes",
    operationId: "findAllCustomerCreditNotes",
    summary: "List a customer's credit notes",
    tag: TAG,
    query: listQuery,
    response: list,
  },
  {
    method: "get",
    path: "/credit_notes/{id}",
    operationId: "findCreditNote",
    summary: "Retrieve a credit note",
    tag: TAG,
    response: rooted("credit_note", creditNoteObject),
  },
  {
    method: "put",
    path: "/credit_notes/{id}",
    operationId: "updateCreditNote",
    summary: "Update a credit note's refund status",
    tag: TAG,
    body: rooted("credit_note", creditNoteUpdate),
    response: rooted("credit_note", creditNoteObject),
  },
  {
    method: "post",
    path: "/credit_notes/{id}/download",
    operationId: "downloadCreditNote",
    summary: "Generate a credit note's PDF",
    tag: TAG,
    description:
      "The credit note's PDF is generated if it is not yet (then kept: the same bytes ever after); the credit note is answered with its `file_url`.",
    response: rooted("credit_note", creditNoteObject),
  },
  {
    method: "get",
    path: "/credit_notes/{id}/pdf",
    operationId: "getCreditNotePdf",
    summary: "A credit note's PDF",
    tag: TAG,
    description: "Not in Lago: the stored PDF of a credit note (generated at the first request), with the API key.",
    mediaType: "application/pdf",
    response: z.string(),
  },
  {
    method: "put",
    path: "/credit_notes/{id}/void",
    operationId: "voidCreditNote",
    summary: "Void what is left of a credit note",
    tag: TAG,
    response: rooted("credit_note", creditNoteObject),
  },
  {
    method: "post",
    path: "/invoices/{id}/void",
    operationId: "voidInvoice",
    summary: "Void an invoice",
    tag: TAG,
    description:
      "A finalized invoice becomes voided: nothing is due on it any more. With generate_credit_note, a credit note of credit_amount + refund_amount over its fees, and the rest as a voided note.",
    body: invoiceVoid,
    response: rooted("invoice", invoiceObject),
  },
  {
    method: "post",
    path: "/invoices",
    operationId: "createInvoice",
    summary: "Create a one-off invoice",
    tag: TAG,
    description:
      "Add-on fees (units × unit amount, the add-on's unless given; taxes: tax_codes, else the add-on's, the customer's, the billing entity's), finalized at once.",
    body: rooted("invoice", oneOffInvoiceCreate),
    response: rooted("invoice", invoiceObject),
  },
  {
    method: "delete",
    path: "/invoices/{id}",
    operationId: "deleteInvoice",
    summary: "Delete a draft invoice",
    tag: TAG,
    description:
      "Drafts only: it takes no number and is never shown again; any other invoice answers 405 not_deletable.",
    response: rooted("invoice", invoiceObject),
  },
  {
    method: "post",
    path: "/invoices/{id}/regenerate",
    operationId: "regenerateInvoice",
    summary: "Bill a voided invoice's fees again",
    tag: TAG,
    description:
      "Lago's admin route: a new invoice with the voided one's fees, finalized at once (one per voided invoice; a retry answers the same one).",
    response: rooted("invoice", invoiceObject),
  },
];
