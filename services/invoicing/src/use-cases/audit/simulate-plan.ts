import { AppError } from "@billing/errors";
import type { PlanViewData } from "@billing/contracts";
import { invoiceFees } from "../../domain/invoice-fees";
import { billLine } from "../../domain/invoice-lines";
import type { FeeDraft, Invoice, InvoiceLine } from "../../domain/invoice";
import {
  chargeFeesOf,
  readThroughSeqOf,
  simulatedPeriod,
  simulatedSnapshot,
  simulationView,
  type PlanSimulationView,
  type SimulatedPeriod,
} from "../../domain/plan-simulation";
import type { PlansPeer } from "../../peers/plans";
import type { UsageAuditPeer } from "../../peers/usage-audit";
import type { InvoiceDeps } from "../invoices/deps";

export type SimulateDeps = Pick<InvoiceDeps, "invoices" | "copies"> & { usageAudit: UsageAuditPeer; plans: PlansPeer };

export interface SimulateInput {
  organizationId: string;
  externalCustomerId: string;
  planCode: string;
  /** issuing dates (YYYY-MM-DD, inclusive) of the invoices whose periods are simulated */
  from: string | null;
  to: string | null;
}

/** At most this many of the customer's invoices, the newest first, are simulated per request. */
export const MAX_SIMULATED_INVOICES = 100;

/**
 * POST /customers/{id}/simulate_plan: each subscription line of the customer's finalized
 * subscription invoices (issued in [from, to]) billed again, for the same billing entry, on
 * another plan: its base fee, spans and fixed charges by the pricing library exactly as billing
 * computes them (`billLine`, `invoiceFees`), its charges re-derived by the usage service from the
 * raw events stored for the span (those acknowledged by the time the real invoice read its usage),
 * priced on the plan's charges and the metrics as they are now. Fees before coupons and taxes,
 * beside the fees the line was billed. Reads only: nothing is stored or sent.
 */
export async function simulatePlan(deps: SimulateDeps, input: SimulateInput): Promise<PlanSimulationView> {
  const customer = await deps.copies.customerByExternalId(input.organizationId, input.externalCustomerId);
  if (!customer) throw AppError.notFound("customer");
  const plan = await deps.plans.planByCode(input.organizationId, input.planCode);
  const { items } = await deps.invoices.list(
    input.organizationId,
    {
      externalCustomerId: input.externalCustomerId,
      status: "finalized",
      invoiceType: "subscription",
      ...(input.from ? { issuingDateFrom: input.from } : {}),
      ...(input.to ? { issuingDateTo: input.to } : {}),
    },
    { page: 1, perPage: MAX_SIMULATED_INVOICES },
  );
  const invoices = [...items].sort((a, b) => a.billed_at.getTime() - b.billed_at.getTime());
  if (invoices.some((i) => i.currency !== plan.amount_currency))
    throw AppError.validation({ plan_code: ["currencies_does_not_match"] });
  const periods: SimulatedPeriod[] = [];
  for (const invoice of invoices) {
    for (const line of invoice.lines) {
      const drafts = await simulatedLine(deps, input.organizationId, invoice, line, plan);
      if (drafts) periods.push(simulatedPeriod(invoice, line, drafts));
    }
  }
  return simulationView(
    {
      externalCustomerId: input.externalCustomerId,
      plan,
      from: input.from ? new Date(`${input.from}T00:00:00Z`) : null,
      to: input.to ? new Date(`${input.to}T00:00:00Z`) : null,
    },
    periods,
  );
}

/** One line's fees on `plan` (null when its subscription's copy is gone). */
async function simulatedLine(
  deps: SimulateDeps,
  organizationId: string,
  invoice: Invoice,
  line: InvoiceLine,
  plan: PlanViewData,
): Promise<FeeDraft[] | null> {
  const copy = await deps.copies.subscription(line.subscription_id);
  if (!copy) return null;
  const simulated = { ...copy, plan };
  const { periods } = billLine(simulated, { at: line.at, reason: line.reason });
  const span = periods.charges;
  let chargeFees: ReturnType<typeof chargeFeesOf> = [];
  if (span && plan.charges.length > 0) {
    // the events the real invoice could see: those stored when it read its usage (its ingest sequence; else acknowledged by then)
    const billedFee = invoice.fees.find((f) => f.subscription_id === line.subscription_id && f.usage_read_at);
    const readAt = billedFee?.usage_read_at ?? null;
    const readThroughSeq = readThroughSeqOf(billedFee?.charge_snapshot);
    const snapshots = plan.charges.map((charge) => ({
      key: charge.svc_id,
      snapshot: simulatedSnapshot(
        charge,
        plan,
        { from: span.from_datetime, to: span.to_datetime, periodDays: span.period_days, billedDays: span.billed_days },
        copy.subscription.timezone,
        readThroughSeq,
      ),
    }));
    const rederived = await deps.usageAudit.rederive(
      organizationId,
      {
        externalSubscriptionId: line.external_subscription_id,
        billedThrough: readAt ? new Date(readAt) : null,
        snapshots,
      },
      0,
    );
    chargeFees = plan.charges.flatMap((charge, i) => chargeFeesOf(charge, rederived[i]!));
  }
  return invoiceFees(
    { invoiceId: `simulation|${invoice.id}`, customer: invoice.customer, entityTaxes: [], currency: invoice.currency },
    [{ copy: simulated, line, periods, chargeFees }],
  );
}
