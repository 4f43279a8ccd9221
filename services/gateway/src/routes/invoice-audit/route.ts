import { Router } from "express";
import type { InvoiceAuditRpc } from "@billing/contracts";
import type { RpcClient } from "@billing/grpc";
import { organizationId } from "../../http/context";
import { idKey, pathParam, rpcOptions } from "../../http/rpc-route";
import { parseFields } from "../../http/validation";
import { simulatePlanInput } from "./validators";

/**
 * Ours, not Lago's: GET /invoices/{id}/audit (a finalized invoice re-derived from its raw events)
 * and POST /customers/{id}/simulate_plan (a customer's past periods priced on another plan,
 * nothing stored). The invoicing service answers JSON, passed through.
 */
export function invoiceAuditRouter(audit: RpcClient<InvoiceAuditRpc>): Router {
  const router = Router();
  router.get("/invoices/:id/audit", async (req, res) => {
    const reply = await audit.call("AuditInvoice", idKey(req), rpcOptions(req));
    res.type("json").send(`{"invoice_audit":${reply.audit_json}}`);
  });
  router.post("/customers/:external_customer_id/simulate_plan", async (req, res) => {
    const input = parseFields(simulatePlanInput, req.body ?? {});
    const reply = await audit.call("SimulatePlan", {
      organization_id: organizationId(req), external_customer_id: pathParam(req, "external_customer_id"), plan_code: input.plan_code,
      ...(input.from ? { from: input.from } : {}), ...(input.to ? { to: input.to } : {}),
    }, rpcOptions(req));
    res.type("json").send(`{"plan_simulation":${reply.simulation_json}}`);
  });
  return router;
}
