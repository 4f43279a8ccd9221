import { AppError } from "@billing/errors";
import { addDays, billingCadence, billingPeriodFor } from "@billing/pricing";
import { timingOf } from "../../domain/billing-schedule";
import type { SubscriptionCopy } from "../../domain/copies";
import { customerUsage, type CustomerUsageView } from "../../domain/customer-usage";
import { usageFees } from "../../domain/invoice-fees";
import { priceInvoice } from "../../domain/invoice-totals";
import type { UsageDeps } from "./deps";

type CurrentUsageDeps = Pick<UsageDeps, "billingEntities" | "clock" | "copies" | "usage">;

/** The organization's customer and its active subscription of that external id: two keyed reads, at once. */
async function subscriptionOf(
  deps: CurrentUsageDeps,
  organizationId: string,
  externalCustomerId: string,
  externalSubscriptionId: string,
) {
  const [key, customer] = await Promise.all([
    deps.copies.usageKey(organizationId, externalSubscriptionId),
    deps.copies.customerByExternalId(organizationId, externalCustomerId),
  ]);
  if (!customer) throw AppError.notFound("customer");
  if (!key || key.external_customer_id !== externalCustomerId || key.subscription.status !== "active")
    throw AppError.notFound("subscription");
  const copy: SubscriptionCopy = {
    ...key,
    next_billing_at: null,
    next_billing_reason: null,
    last_billed_at: null,
    last_billed_reason: null,
  };
  return { copy, customer };
}

/**
 * GET /customers/{id}/current_usage?external_subscription_id=: the usage of the subscription's
 * current charges period, priced by the usage service from what is stored now (no wait for
 * storage: a dashboard polls it), taxes by the pricing library. Keyed reads and one gRPC call.
 */
export async function getCurrentUsage(
  deps: CurrentUsageDeps,
  organizationId: string,
  externalCustomerId: string,
  externalSubscriptionId: string,
): Promise<CustomerUsageView> {
  const { copy, customer } = await subscriptionOf(deps, organizationId, externalCustomerId, externalSubscriptionId);
  const c = customer.customer;
  const timing = billingCadence(timingOf(copy.subscription, copy.plan), {
    bill_charges_monthly: copy.plan.bill_charges_monthly,
    bill_fixed_charges_monthly: false,
  });
  const period = billingPeriodFor(timing, deps.clock.now());
  const [usage, entity] = await Promise.all([
    deps.usage.chargeUsage(
      [
        {
          organizationId,
          subscriptionId: copy.id,
          externalSubscriptionId,
          from: period.from_datetime,
          to: period.to_datetime,
          periodDays: period.period_days,
          billedDays: period.billed_days,
        },
      ],
      false,
    ),
    c.billing_entity_code ? deps.billingEntities.get(organizationId, c.billing_entity_code) : Promise.resolve(null),
  ]);
  const currency = copy.plan.amount_currency;
  const fees = usageFees(
    { invoiceId: `usage|${copy.id}`, customer: c, entityTaxes: entity?.taxes ?? [], currency },
    {
      copy,
      line: {
        subscription_id: copy.id,
        external_subscription_id: externalSubscriptionId,
        plan_id: copy.plan.svc_id,
        plan_code: copy.plan.code,
        reason: "subscription_periodic",
        invoicing_reason: "subscription_periodic",
        at: period.to_datetime,
        subscription_from: null,
        subscription_to: null,
        charges_from: period.from_datetime,
        charges_to: period.to_datetime,
      },
      periods: {
        subscription: null,
        charges: period,
        fixed_charges: null,
        fixed_charges_in_advance: null,
        commitment: null,
      },
      chargeFees: usage[0]?.fees ?? [],
    },
  );
  const priced = priceInvoice({ currency, fees, coupons: [], finalizing: false });
  return customerUsage({
    from: period.from_datetime,
    to: period.to_datetime,
    issuing_date: addDays(period.to_date, 1),
    invoice_id: null,
    currency,
    fees: priced.fees,
    taxes_amount_cents: priced.amounts.taxes_amount_cents,
    charges: copy.plan.charges,
  });
}
