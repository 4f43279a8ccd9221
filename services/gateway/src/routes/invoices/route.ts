import { Router } from "express";
import type { InvoicingRpc } from "@billing/contracts";
import type { RpcClient } from "@billing/grpc";
import { presentCustomerUsage, presentInvoice, presentMeta } from "@billing/views";
import { organizationId } from "../../http/context";
import { idKey, pathParam, replied, rpcOptions } from "../../http/rpc-route";
import { pageQuery, parseFields, unbracketed, wrapped } from "../../http/validation";
import { sendInvoice } from "./send-invoice";
import { currentUsageQuery, invoiceListQuery, invoiceUpdate, pastUsageQuery } from "./validators";

/**
 * /api/v1/invoices and the customers' usage: validation and shape only; the invoicing service
 * answers typed invoices and usage, presented here as Lago's InvoiceObjectExtended and
 * CustomerUsageObject (@billing/views).
 */
export function invoicesRouter(invoicing: RpcClient<InvoicingRpc>): Router {
  const router = Router();

  router.get("/invoices", async (req, res) => {
    const q = parseFields(invoiceListQuery, unbracketed(req.query));
    const reply = await invoicing.call(
      "ListInvoices",
      { organization_id: organizationId(req), page: pageQuery(req), ...q },
      rpcOptions(req),
    );
    res.json({ invoices: reply.invoices.map(presentInvoice), meta: presentMeta(reply.meta) });
  });
  router.get("/invoices/:id", async (req, res) =>
    sendInvoice(res, await invoicing.call("GetInvoice", idKey(req), rpcOptions(req))),
  );
  router.put("/invoices/:id", async (req, res) => {
    const update = parseFields(invoiceUpdate, wrapped(req, "invoice"));
    sendInvoice(
      res,
      await invoicing.call(
        "UpdateInvoice",
        {
          ...idKey(req),
          payment_status: update.payment_status,
          metadata: update.metadata ?? [],
          update_metadata: update.metadata !== undefined,
        },
        rpcOptions(req),
      ),
    );
  });
  router.put("/invoices/:id/finalize", async (req, res) =>
    sendInvoice(res, await invoicing.call("FinalizeInvoice", idKey(req), rpcOptions(req))),
  );
  router.put("/invoices/:id/refresh", async (req, res) =>
    sendInvoice(res, await invoicing.call("RefreshInvoice", idKey(req), rpcOptions(req))),
  );
  router.get("/customers/:external_customer_id/current_usage", async (req, res) => {
    const q = parseFields(currentUsageQuery, req.query);
    const reply = await invoicing.call(
      "GetCurrentUsage",
      {
        organization_id: organizationId(req),
        external_customer_id: pathParam(req, "external_customer_id"),
        external_subscription_id: q.external_subscription_id,
      },
      rpcOptions(req),
    );
    res.json({ customer_usage: presentCustomerUsage(replied(reply.customer_usage, "customer_usage")) });
  });
  router.get("/customers/:external_customer_id/past_usage", async (req, res) => {
    const q = parseFields(pastUsageQuery, req.query);
    const reply = await invoicing.call(
      "GetPastUsage",
      {
        organization_id: organizationId(req),
        external_customer_id: pathParam(req, "external_customer_id"),
        external_subscription_id: q.external_subscription_id,
        billable_metric_code: q.billable_metric_code,
        periods_count: q.periods_count,
        page: pageQuery(req),
      },
      rpcOptions(req),
    );
    res.json({ usage_periods: reply.usage_periods.map(presentCustomerUsage), meta: presentMeta(reply.meta) });
  });
  return router;
}
