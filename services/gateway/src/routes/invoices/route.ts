import { Router, type Request, type Response } from "express";
import type { InvoicingRpc } from "@billing/contracts";
import type { RpcClient } from "@billing/grpc";
import { organizationId } from "../../http/context";
import { presentMeta } from "../../http/presenting";
import { pathParam, rpcOptions } from "../../http/rpc-route";
import { pageQuery, parseFields } from "../../http/validation";
import { currentUsageQuery, invoiceListQuery } from "./validators";

/** Query keys as Lago clients send them: `statuses[]=a&statuses[]=b` (also percent-encoded) → `statuses`. */
const unbracketed = (query: Request["query"]) => Object.fromEntries(Object.entries(query).map(([k, v]) => [k.replace(/\[\]$/, ""), v]));

/**
 * /api/v1/invoices and the customers' usage: validation and shape only; the invoicing service
 * stores each invoice as the API's object (InvoiceObjectExtended) and answers it as is.
 */
export function invoicesRouter(invoicing: RpcClient<InvoicingRpc>): Router {
  const router = Router();
  const sendInvoice = (res: Response, reply: { invoice_json: string }) => res.type("json").send(`{"invoice":${reply.invoice_json}}`);
  const key = (req: Request) => ({ organization_id: organizationId(req), id: pathParam(req, "id") });

  router.get("/invoices", async (req, res) => {
    const q = parseFields(invoiceListQuery, unbracketed(req.query));
    const reply = await invoicing.call("ListInvoices", { organization_id: organizationId(req), page: pageQuery(req), ...q }, rpcOptions(req));
    res.type("json").send(`{"invoices":[${reply.invoices_json.join(",")}],"meta":${JSON.stringify(presentMeta(reply.meta))}}`);
  });
  router.get("/invoices/:id", async (req, res) => sendInvoice(res, await invoicing.call("GetInvoice", key(req), rpcOptions(req))));
  router.put("/invoices/:id/finalize", async (req, res) => sendInvoice(res, await invoicing.call("FinalizeInvoice", key(req), rpcOptions(req))));
  router.put("/invoices/:id/refresh", async (req, res) => sendInvoice(res, await invoicing.call("RefreshInvoice", key(req), rpcOptions(req))));
  router.get("/customers/:external_customer_id/current_usage", async (req, res) => {
    const q = parseFields(currentUsageQuery, req.query);
    const reply = await invoicing.call("GetCurrentUsage", {
      organization_id: organizationId(req), external_customer_id: pathParam(req, "external_customer_id"), external_subscription_id: q.external_subscription_id,
    }, rpcOptions(req));
    res.type("json").send(`{"customer_usage":${reply.usage_json}}`);
  });
  return router;
}
