import { Router, type Request, type Response } from "express";
import type { CreditNoteRpc } from "@billing/contracts";
import type { RpcClient } from "@billing/grpc";
import { presentCreditNote, presentEstimatedCreditNote, presentMeta } from "@billing/views";
import { sectionChoiceMessage } from "../invoice-custom-sections/choice";
import { organizationId } from "../../http/context";
import { idKey, pathParam, replied, replySender, rpcOptions } from "../../http/rpc-route";
import { pageQuery, parseFields, unbracketed, wrapped } from "../../http/validation";
import { sendInvoice } from "../invoices/send-invoice";
import {
  creditNoteCreate,
  creditNoteEstimate,
  creditNoteListQuery,
  creditNoteUpdate,
  invoiceVoid,
  oneOffInvoiceCreate,
} from "./validators";

/**
 * /api/v1/credit_notes and POST /invoices/{id}/void: validation and shape only; the invoicing
 * service computes and stores each credit note and answers it typed, presented here as Lago's
 * CreditNoteObject (@billing/views).
 */
export function creditNotesRouter(creditNotes: RpcClient<CreditNoteRpc>): Router {
  const router = Router();
  const send = replySender("credit_note", presentCreditNote);
  const list = async (req: Request, res: Response, externalCustomerId?: string) => {
    const q = parseFields(creditNoteListQuery, unbracketed(req.query));
    const reply = await creditNotes.call(
      "ListCreditNotes",
      {
        organization_id: organizationId(req),
        page: pageQuery(req),
        ...q,
        external_customer_id: externalCustomerId ?? q.external_customer_id,
        billing_entity_codes: q.billing_entity_codes ?? [],
      },
      rpcOptions(req),
    );
    res.json({ credit_notes: reply.credit_notes.map(presentCreditNote), meta: presentMeta(reply.meta) });
  };

  router.post("/credit_notes/estimate", async (req, res) => {
    const body = parseFields(creditNoteEstimate, wrapped(req, "credit_note"));
    const reply = await creditNotes.call(
      "EstimateCreditNote",
      { organization_id: organizationId(req), invoice_id: body.invoice_id, items: body.items },
      rpcOptions(req),
    );
    res.json({
      estimated_credit_note: presentEstimatedCreditNote(replied(reply.estimated_credit_note, "estimated_credit_note")),
    });
  });
  router.post("/credit_notes", async (req, res) => {
    const body = parseFields(creditNoteCreate, wrapped(req, "credit_note"));
    send(
      res,
      await creditNotes.call(
        "CreateCreditNote",
        {
          organization_id: organizationId(req),
          invoice_id: body.invoice_id,
          reason: body.reason ?? undefined,
          description: body.description ?? undefined,
          credit_amount_cents: body.credit_amount_cents ?? 0,
          refund_amount_cents: body.refund_amount_cents ?? 0,
          offset_amount_cents: body.offset_amount_cents ?? 0,
          items: body.items,
        },
        rpcOptions(req),
      ),
    );
  });
  router.get("/credit_notes", (req, res) => list(req, res));
  router.get("/customers/:external_customer_id/credit_notes", (req, res) =>
    list(req, res, pathParam(req, "external_customer_id")),
  );
  router.get("/credit_notes/:id", async (req, res) =>
    send(res, await creditNotes.call("GetCreditNote", idKey(req), rpcOptions(req))),
  );
  router.put("/credit_notes/:id", async (req, res) => {
    const body = parseFields(creditNoteUpdate, wrapped(req, "credit_note"));
    send(
      res,
      await creditNotes.call("UpdateCreditNote", { ...idKey(req), refund_status: body.refund_status }, rpcOptions(req)),
    );
  });
  router.put("/credit_notes/:id/void", async (req, res) =>
    send(res, await creditNotes.call("VoidCreditNote", idKey(req), rpcOptions(req))),
  );
  router.post("/invoices/:id/void", async (req, res) => {
    const body = parseFields(invoiceVoid, req.body && typeof req.body === "object" ? req.body : {});
    const reply = await creditNotes.call(
      "VoidInvoice",
      {
        ...idKey(req),
        generate_credit_note: body.generate_credit_note ?? false,
        credit_amount: body.credit_amount ?? 0,
        refund_amount: body.refund_amount ?? 0,
      },
      rpcOptions(req),
    );
    sendInvoice(res, reply);
  });
  router.post("/invoices", async (req, res) => {
    const body = parseFields(oneOffInvoiceCreate, wrapped(req, "invoice"));
    const reply = await creditNotes.call(
      "CreateOneOffInvoice",
      {
        organization_id: organizationId(req),
        external_customer_id: body.external_customer_id,
        currency: body.currency,
        billing_entity_code: body.billing_entity_code,
        fees: body.fees.map((f) => ({
          add_on_code: f.add_on_code,
          units: f.units ?? undefined,
          unit_amount_cents: f.unit_amount_cents ?? undefined,
          description: f.description ?? undefined,
          invoice_display_name: f.invoice_display_name,
          tax_codes: f.tax_codes ?? [],
          from_datetime: f.from_datetime,
          to_datetime: f.to_datetime,
        })),
        invoice_custom_section: sectionChoiceMessage(body.invoice_custom_section),
      },
      rpcOptions(req),
    );
    sendInvoice(res, reply);
  });
  router.delete("/invoices/:id", async (req, res) => {
    sendInvoice(res, await creditNotes.call("DeleteDraftInvoice", idKey(req), rpcOptions(req)));
  });
  router.post("/invoices/:id/regenerate", async (req, res) => {
    sendInvoice(res, await creditNotes.call("RegenerateInvoice", idKey(req), rpcOptions(req)));
  });
  return router;
}
