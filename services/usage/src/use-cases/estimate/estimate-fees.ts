import { randomUUID } from "node:crypto";
import type { Clock } from "@billing/clock";
import { AppError } from "@billing/errors";
import type { UsageEvent } from "@billing/pricing";
import type { CatalogCopies, SubscriptionCopy } from "../../domain/read-copies";
import type { UsageReader } from "../../domain/usage-event";
import { estimateCharge } from "./charge-estimate";
import { chargesPeriod } from "./charges-period";
import { periodOf } from "../advance/price-advance-events";
import { eventProperties } from "./event-properties";
import { feeView, type FeeView } from "./fee-view";

export interface EstimateDeps {
  copies: CatalogCopies;
  usage: UsageReader;
  clock: Clock;
  newId?: () => string;
}

export interface EstimateRequest {
  organizationId: string;
  externalSubscriptionId: string;
  code: string;
  properties: Record<string, unknown>;
  /** Default: now. */
  timestamp?: Date;
}

const startedBy = (s: SubscriptionCopy, at: Date) =>
  Date.parse(s.subscription.started_at ?? s.subscription.subscription_at) <= at.getTime();

/**
 * POST /events/estimate_fees: the fees one more event would create on the subscription's
 * pay-in-advance charges of the metric, from the current charges period's stored usage.
 * Nothing is stored. Everything but the period's events is read from memory.
 */
export async function estimateFees(deps: EstimateDeps, request: EstimateRequest): Promise<FeeView[]> {
  const { organizationId: org, externalSubscriptionId: externalId, code } = request;
  const at = request.timestamp ?? deps.clock.now();
  const subscription = deps.copies.activeSubscription(org, externalId);
  if (!subscription || !startedBy(subscription, at)) throw AppError.notFound("subscription");
  const metric = deps.copies.metricByCode(org, code);
  if (!metric) throw AppError.notFound("billable_metric");
  const charges = subscription.plan.charges.filter(
    (c) => c.pay_in_advance && c.svc_billable_metric_id === metric.svc_id,
  );
  if (charges.length === 0) throw AppError.validation({ code: ["does_not_match_an_instant_charge"] });

  const newId = deps.newId ?? randomUUID;
  const transactionId = newId();
  const event: UsageEvent = {
    transaction_id: transactionId,
    code,
    timestamp: at,
    properties: eventProperties(metric, request.properties, { code, timestamp: at }),
  };
  const period = chargesPeriod(subscription, at);
  // Recurring metrics carry their usage over from the subscription's start.
  const from = metric.recurring ? new Date(subscription.subscription.started_at ?? period.from) : period.from;
  // The whole period (a stable key for a cached read); events after `at` are left out when pricing.
  const stored = await deps.usage.events({
    organizationId: org,
    externalSubscriptionId: externalId,
    code,
    from,
    to: new Date(period.to.getTime() + 1),
  });
  const currency = subscription.plan.amount_currency;

  return charges.map((charge) => {
    // Tax selection: the charge's taxes, else the plan's.
    const taxes = charge.taxes.length > 0 ? charge.taxes : subscription.plan.taxes;
    const { fee, filter } = estimateCharge({
      charge,
      metric,
      event,
      stored,
      currency,
      taxes: taxes.map((t) => ({ code: t.code, rate: String(t.rate), name: t.name })),
      // a prorated charge is priced for the days left in the period, as the fee the event will create
      period: charge.prorated ? periodOf(subscription, at) : undefined,
    });
    return feeView({
      fee,
      charge,
      filter,
      metric,
      subscription,
      taxes,
      period,
      currency,
      transactionId,
      now: deps.clock.now(),
      newId,
    });
  });
}
