import { Router } from "express";
import type { InvoiceAuditRpc } from "@billing/contracts";
import type { RpcClient } from "@billing/grpc";
import { organizationId } from "../../http/context";
import { presentInvoiceAudit, presentPlanSimulation } from "@billing/views";
import { idKey, pathParam, replySender, rpcOptions } from "../../http/rpc-route";
import { parseFields } from "../../http/validation";
import { simulatePlanInput } from "./validators";

/**
 * Ours, not Lago's: GET /invoices/{id}/audit (a finalized invoice re-derived from its raw events)
 * and POST /customers/{id}/simulate_plan (a customer's past periods priced on another plan,
 * nothing stored), presented from the invoicing service's messages.
 */
export function invoiceAuditRouter(audit: RpcClient<InvoiceAuditRpc>): Router {
  const router = Router();
  const sendAudit = replySender("invoice_audit", presentInvoiceAudit);
  const sendSimulation = replySender("plan_simulation", presentPlanSimulation);
  router.get("/invoices/:id/audit", async (req, res) => {
    const reply = await audit.call("AuditInvoice", idKey(req), rpcOptions(req));
    sendAudit(res, reply);
  });
  router.post("/customers/:external_customer_id/simulate_plan", async (req, res) => {
    const input = parseFields(simulatePlanInput, req.body ?? {});
    const reply = await audit.call(
      "SimulatePlan",
      {
        organization_id: organizationId(req),
        external_customer_id: pathParam(req, "external_customer_id"),
        plan_code: input.plan_code,
        ...(input.from ? { from: input.from } : {}),
        ...(input.to ? { to: input.to } : {}),
      },
      rpcOptions(req),
    );
    sendSimulation(res, reply);
  });
  return router;
}
