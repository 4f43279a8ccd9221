import { Router, type Request, type Response } from "express";
import type { CatalogRpc } from "@billing/contracts";
import type { RpcClient } from "@billing/grpc";
import { ctx, organizationId } from "../../http/context";
import { codeKey, replySender, rpcOptions } from "../../http/rpc-route";
import { topLevelKey } from "../../http/fields";
import { presentMeta } from "../../http/presenting";
import { pageQuery, parseFields, wrapped } from "../../http/validation";
import { presentInvoiceCustomSection } from "./presenter";
import { toInvoiceCustomSectionInputMessage } from "./to-message";
import { invoiceCustomSectionCreateSchema, invoiceCustomSectionUpdateSchema } from "./validators";

const ROOT = "invoice_custom_section";

/** /api/v1/invoice_custom_sections: validation and shape only; the catalog service decides. */
export function invoiceCustomSectionsRouter(sections: RpcClient<CatalogRpc["invoiceCustomSections"]>): Router {
  const router = Router();
  const send = replySender(ROOT, presentInvoiceCustomSection);

  router.post("/invoice_custom_sections", async (req, res) => {
    const input = parseFields(invoiceCustomSectionCreateSchema, wrapped(req, ROOT), topLevelKey);
    const message = { organization_id: organizationId(req), [ROOT]: toInvoiceCustomSectionInputMessage(input) };
    send(res, await sections.call("CreateInvoiceCustomSection", message, rpcOptions(req)));
  });

  router.get("/invoice_custom_sections", async (req, res) => {
    const reply = await sections.call(
      "ListInvoiceCustomSections",
      { organization_id: organizationId(req), page: pageQuery(req) },
      rpcOptions(req),
    );
    res.json({ invoice_custom_sections: reply.invoice_custom_sections.map(presentInvoiceCustomSection), meta: presentMeta(reply.meta) });
  });

  router.get("/invoice_custom_sections/:code", async (req, res) => {
    send(res, await sections.call("GetInvoiceCustomSection", codeKey(req), rpcOptions(req)));
  });

  router.put("/invoice_custom_sections/:code", async (req, res) => {
    const input = parseFields(invoiceCustomSectionUpdateSchema, wrapped(req, ROOT), topLevelKey);
    send(res, await sections.call("UpdateInvoiceCustomSection", { ...codeKey(req), [ROOT]: toInvoiceCustomSectionInputMessage(input) }, rpcOptions(req)));
  });

  router.delete("/invoice_custom_sections/:code", async (req, res) => {
    send(res, await sections.call("DeleteInvoiceCustomSection", codeKey(req), rpcOptions(req)));
  });

  return router;
}
