import type { InvoiceAuditRpc } from "@billing/contracts";
import { AppError } from "@billing/errors";
import type { Handlers } from "@billing/grpc";
import { auditInvoice, type AuditDeps } from "../use-cases/audit/audit-invoice";
import { simulatePlan, type SimulateDeps } from "../use-cases/audit/simulate-plan";
import { invoiceAuditMessage, planSimulationMessage } from "./invoice-audit-messages";

type Deps = Omit<SimulateDeps, "usageAudit" | "plans"> &
  Omit<AuditDeps, "usageAudit"> &
  Partial<Pick<SimulateDeps, "usageAudit" | "plans">>;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** billing.invoicing.v1.InvoiceAuditService: invoices re-derived from their raw events; plans simulated. */
export function invoiceAuditHandlers(deps: Deps): Handlers<InvoiceAuditRpc> {
  const peers = <K extends "usageAudit" | "plans">(...names: K[]) => {
    for (const name of names)
      if (!deps[name]) throw new AppError("unavailable", undefined, undefined, `no ${name} peer`);
    return deps as Deps & Required<Pick<SimulateDeps, K>>;
  };
  return {
    AuditInvoice: async (req) => ({
      invoice_audit: invoiceAuditMessage(await auditInvoice(peers("usageAudit"), req.organization_id, req.id)),
    }),
    SimulatePlan: async (req) => {
      const from = req.from ?? null;
      const to = req.to ?? null;
      if (!req.plan_code) throw AppError.validation({ plan_code: ["value_is_mandatory"] });
      if ((from && !DATE.test(from)) || (to && !DATE.test(to)))
        throw AppError.validation({ [from && !DATE.test(from) ? "from" : "to"]: ["invalid_date"] });
      const view = await simulatePlan(peers("usageAudit", "plans"), {
        organizationId: req.organization_id,
        externalCustomerId: req.external_customer_id,
        planCode: req.plan_code,
        from,
        to,
      });
      return { plan_simulation: planSimulationMessage(view) };
    },
  };
}
