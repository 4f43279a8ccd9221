import { AppError } from "@billing/errors";
import {
  advanceAsks,
  compareInvoice,
  rederiveAsks,
  type AdvanceFeesAsk,
  type InvoiceAuditView,
  type RederivedAdvanceChargeData,
  type RederivedChargeData,
} from "../../domain/invoice-audit";
import type { UsageAuditPeer } from "../../peers/usage-audit";
import type { InvoiceDeps } from "../invoices/deps";

export type AuditDeps = Pick<InvoiceDeps, "invoices" | "clock"> & { usageAudit: UsageAuditPeer };

/**
 * GET /invoices/{id}/audit: a finalized invoice's charge fees re-derived by the usage service from
 * the raw events stored for their periods and the charge snapshots they were priced from (one call
 * per subscription, in parallel), and its pay-in-advance fees from the replay of their charges'
 * stored events (one call per subscription, in parallel with the others), compared fee by fee.
 * Reads only: nothing is stored or sent.
 */
export async function auditInvoice(deps: AuditDeps, organizationId: string, id: string): Promise<InvoiceAuditView> {
  const invoice = await deps.invoices.find(organizationId, id);
  if (!invoice) throw AppError.notFound("invoice");
  if (invoice.status !== "finalized") throw new AppError("not_allowed", "invoice_not_finalized");
  const asks = rederiveAsks(invoice);
  const bySubscription = new Map<string, AdvanceFeesAsk[]>();
  for (const ask of advanceAsks(invoice))
    bySubscription.set(ask.externalSubscriptionId, [...(bySubscription.get(ask.externalSubscriptionId) ?? []), ask]);
  const advanceGroups = [...bySubscription.values()];
  const [answers, advanceAnswers] = await Promise.all([
    Promise.all(asks.map((ask) => deps.usageAudit.rederive(organizationId, ask))),
    Promise.all(
      advanceGroups.map((group) =>
        deps.usageAudit.rederiveAdvance(organizationId, group[0]!.externalSubscriptionId, group),
      ),
    ),
  ]);
  const rederived = new Map<string, RederivedChargeData>();
  asks.forEach((ask, i) => ask.snapshots.forEach((s, j) => rederived.set(s.key, answers[i]![j]!)));
  const advance = new Map<string, RederivedAdvanceChargeData>();
  advanceGroups.forEach((group, i) => group.forEach((ask, j) => advance.set(ask.key, advanceAnswers[i]![j]!)));
  return compareInvoice(invoice, rederived, deps.clock.now(), advance);
}
