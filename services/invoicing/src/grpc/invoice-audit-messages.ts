import { usageEventToProto, type InvoicingMessages as M } from "@billing/contracts";
import type { Nullable } from "@billing/grpc";
import type { InvoiceAuditView } from "../domain/invoice-audit";
import type { PlanSimulationView } from "../domain/plan-simulation";

/** Domain → proto for the invoice audit and the plan simulation (the views are already shaped as the bodies; nulls become absent fields). */

export function invoiceAuditMessage(view: InvoiceAuditView): Nullable<M.InvoiceAudit> {
  const { fees_amount_cents: amounts, charges, ...rest } = view;
  return {
    ...rest,
    invoiced_fees_amount_cents: amounts.invoiced,
    recomputed_fees_amount_cents: amounts.recomputed,
    charges: charges.map((c) => ({ ...c, late_events: c.late_events.map(usageEventToProto) })),
  };
}

export const planSimulationMessage = (view: PlanSimulationView): Nullable<M.PlanSimulation> => view;
