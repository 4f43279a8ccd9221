import type { InvoiceAuditRpc } from "@billing/contracts";
import { AppError } from "@billing/errors";
import type { Handlers } from "@billing/grpc";
import { auditInvoice, type AuditDeps } from "../use-cases/audit/audit-invoice";

/** billing.invoicing.v1.InvoiceAuditService: invoices re-derived from their raw events; plans simulated. */
export function invoiceAuditHandlers(deps: Omit<AuditDeps, "usageAudit"> & { usageAudit?: AuditDeps["usageAudit"] }): Handlers<InvoiceAuditRpc> {
  const audit = (): AuditDeps => {
    if (!deps.usageAudit) throw new AppError("unavailable", undefined, undefined, "no usage audit peer");
    return deps as AuditDeps;
  };
  return {
    AuditInvoice: async (req) => ({ audit_json: JSON.stringify(await auditInvoice(audit(), req.organization_id, req.id)) }),
    SimulatePlan: async () => {
      throw new AppError("not_allowed", "not_implemented");
    },
  };
}
