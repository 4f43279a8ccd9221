import { AppError } from "@billing/errors";
import { addDays, billingPeriodFor, computeInvoiceTotals, localDateOf } from "@billing/pricing";
import { timingOf } from "../../domain/billing-schedule";
import type { InvoicingDeps } from "../deps";

/**
 * GET /customers/{id}/current_usage?external_subscription_id=: Lago's CustomerUsage of the
 * subscription's current period, priced by the usage service from what is stored now (no wait
 * for storage: a dashboard polls it), taxes by the pricing library. Reads copies by index and one
 * gRPC call.
 */
export async function getCurrentUsage(deps: InvoicingDeps, organizationId: string, externalCustomerId: string, externalSubscriptionId: string) {
  const customer = await deps.copies.customerByExternalId(organizationId, externalCustomerId);
  if (!customer) throw AppError.notFound("customer");
  const copy = (await deps.copies.subscriptionsOf(organizationId, externalSubscriptionId)).find(
    (c) => c.subscription.status === "active" && c.subscription.external_customer_id === externalCustomerId,
  );
  if (!copy) throw AppError.notFound("subscription");
  const s = copy.subscription;
  const period = billingPeriodFor(timingOf(s, copy.plan), localDateOf(deps.clock.now(), s.timezone));
  const [priced] = await deps.usage.chargeUsage(
    [{ organizationId, subscriptionId: copy.id, externalSubscriptionId, from: period.from_datetime, to: period.to_datetime, periodDays: period.period_days }],
    false,
  );
  const fees = (priced?.fees ?? []).filter((f) => !f.true_up);
  const currency = copy.plan.amount_currency;
  const taxesOf = (chargeId: string) => {
    const charge = copy.plan.charges.find((c) => c.svc_id === chargeId);
    const taxes = charge && charge.taxes.length > 0 ? charge.taxes : copy.plan.taxes.length > 0 ? copy.plan.taxes : customer.customer.taxes;
    return taxes.map((t) => ({ code: t.code, rate: t.rate, name: t.name }));
  };
  const totals = computeInvoiceTotals({
    currency, finalizing: false,
    fees: fees.map((f) => ({ fee_type: "charge" as const, amount_cents: f.amount_cents, precise_amount_cents: f.precise_amount_cents, charge_id: f.charge_id, taxes: taxesOf(f.charge_id) })),
  });
  const byCharge = new Map<string, typeof fees>();
  for (const f of fees) byCharge.set(f.charge_id, [...(byCharge.get(f.charge_id) ?? []), f]);
  const sum = (list: typeof fees, pick: (f: (typeof fees)[number]) => number) => list.reduce((n, f) => n + pick(f), 0);
  return {
    from_datetime: period.from_datetime.toISOString(),
    to_datetime: period.to_datetime.toISOString(),
    issuing_date: addDays(period.to_date, 1),
    svc_invoice_id: null,
    currency,
    amount_cents: totals.fees_amount_cents,
    taxes_amount_cents: totals.taxes_amount_cents,
    total_amount_cents: totals.sub_total_including_taxes_amount_cents,
    charges_usage: [...byCharge.entries()].map(([chargeId, list]) => {
      const first = list[0]!;
      const charge = copy.plan.charges.find((c) => c.svc_id === chargeId);
      const units = list.length === 1 ? first.units : String(list.reduce((n, f) => n + Number(f.units), 0));
      return {
        units,
        total_aggregated_units: list.length === 1 ? first.total_aggregated_units : units,
        events_count: sum(list, (f) => f.events_count),
        amount_cents: sum(list, (f) => f.amount_cents),
        amount_currency: currency,
        pricing_unit_details: null,
        charge: { svc_id: chargeId, charge_model: first.charge_model, invoice_display_name: charge?.invoice_display_name ?? null },
        billable_metric: { svc_id: first.billable_metric_id, name: first.billable_metric_name, code: first.billable_metric_code, aggregation_type: first.aggregation_type },
        filters: [],
        grouped_usage: [],
      };
    }),
  };
}
