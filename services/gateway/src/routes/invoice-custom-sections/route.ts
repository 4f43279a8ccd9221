import { Router, type Request, type Response } from "express";
import type { RpcClient } from "@billing/grpc";
import { ctx, organizationId } from "../../http/context";
import { topLevelKey } from "../../http/fields";
import { presentMeta } from "../../http/presenting";
import { pageQuery, parseFields, wrapped } from "../../http/validation";
import { presentInvoiceCustomSection } from "./presenter";
import { toInvoiceCustomSectionInputMessage } from "./to-message";
import { invoiceCustomSectionCreateSchema, invoiceCustomSectionUpdateSchema } from "./validators";

type SectionReply = { invoice_custom_section: Record<string, unknown> };
const ROOT = "invoice_custom_section";

/** /api/v1/invoice_custom_sections: validation and shape only; the catalog service decides. */
export function invoiceCustomSectionsRouter(sections: RpcClient): Router {
  const router = Router();
  const opts = (req: Request) => ({ requestId: ctx(req).requestId });
  const key = (req: Request) => ({ organization_id: organizationId(req), code: req.params.code });
  const send = (res: Response, reply: SectionReply) => res.json({ [ROOT]: presentInvoiceCustomSection(reply.invoice_custom_section) });

  router.post("/invoice_custom_sections", async (req, res) => {
    const input = parseFields(invoiceCustomSectionCreateSchema, wrapped(req, ROOT), topLevelKey);
    const message = { organization_id: organizationId(req), [ROOT]: toInvoiceCustomSectionInputMessage(input) };
    send(res, await sections.call<SectionReply>("CreateInvoiceCustomSection", message, opts(req)));
  });

  router.get("/invoice_custom_sections", async (req, res) => {
    const reply = await sections.call<{ invoice_custom_sections: Array<Record<string, unknown>>; meta: Record<string, unknown> }>(
      "ListInvoiceCustomSections",
      { organization_id: organizationId(req), page: pageQuery(req) },
      opts(req),
    );
    res.json({ invoice_custom_sections: reply.invoice_custom_sections.map(presentInvoiceCustomSection), meta: presentMeta(reply.meta) });
  });

  router.get("/invoice_custom_sections/:code", async (req, res) => {
    send(res, await sections.call<SectionReply>("GetInvoiceCustomSection", key(req), opts(req)));
  });

  router.put("/invoice_custom_sections/:code", async (req, res) => {
    const input = parseFields(invoiceCustomSectionUpdateSchema, wrapped(req, ROOT), topLevelKey);
    send(res, await sections.call<SectionReply>("UpdateInvoiceCustomSection", { ...key(req), [ROOT]: toInvoiceCustomSectionInputMessage(input) }, opts(req)));
  });

  router.delete("/invoice_custom_sections/:code", async (req, res) => {
    send(res, await sections.call<SectionReply>("DeleteInvoiceCustomSection", key(req), opts(req)));
  });

  return router;
}
