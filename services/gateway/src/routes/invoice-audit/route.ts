import { Router } from "express";
import type { InvoiceAuditRpc } from "@billing/contracts";
import type { RpcClient } from "@billing/grpc";
import { idKey, rpcOptions } from "../../http/rpc-route";

/**
 * GET /invoices/{id}/audit (ours, not Lago's): a finalized invoice re-derived from its raw events
 * by the invoicing and usage services; the answer is their JSON, passed through.
 */
export function invoiceAuditRouter(audit: RpcClient<InvoiceAuditRpc>): Router {
  const router = Router();
  router.get("/invoices/:id/audit", async (req, res) => {
    const reply = await audit.call("AuditInvoice", idKey(req), rpcOptions(req));
    res.type("json").send(`{"invoice_audit":${reply.audit_json}}`);
  });
  return router;
}
