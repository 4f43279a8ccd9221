import { derivedUuid, RetryLater, Subjects, type Envelope } from "@billing/bus";
import { domainEvent } from "@billing/contracts";
import { billingCadence, billingPeriodFor, type BillingPeriod } from "@billing/pricing";
import { timingOf } from "../../domain/billing-schedule";
import type { SubscriptionCopy } from "../../domain/copies";
import type { Invoice } from "../../domain/invoice";
import { invoicingTerms } from "../../domain/invoicing-terms";
import {
  crossedThresholds,
  lifetimeState,
  newProgressiveInvoice,
  progressiveInvoiceIdOf,
  progressiveUsageCents,
  type PlanThreshold,
} from "../../domain/progressive-billing";
import { runBounded } from "../billing/run-bounded";
import type { FinalizeDeps } from "../invoices/deps";
import type { ProgressiveDeps } from "./deps";
import { finalizeOpenInvoices } from "../invoices/finalize-open-invoice";

/** A subscription's current charges period (the one current usage shows), at `now`. */
export function currentChargesPeriod(copy: SubscriptionCopy, now: Date): BillingPeriod {
  const timing = billingCadence(timingOf(copy.subscription, copy.plan), {
    bill_charges_monthly: copy.plan.bill_charges_monthly,
    bill_fixed_charges_monthly: false,
  });
  return billingPeriodFor(timing, now);
}

/** The subscription copy behind an external id (the newest), or null. */
export async function copyOf(
  deps: Pick<ProgressiveDeps, "copies">,
  organizationId: string,
  externalSubscriptionId: string,
  sandbox: boolean,
) {
  const key = await deps.copies.usageKey(organizationId, externalSubscriptionId);
  if (!key) return null;
  const copy: SubscriptionCopy = {
    ...key,
    sandbox,
    next_billing_at: null,
    next_billing_reason: null,
    last_billed_at: null,
    last_billed_reason: null,
  };
  return { copy, externalCustomerId: key.external_customer_id };
}

/** One `usage_threshold_reached` per threshold, ids derived from the invoice (a republished copy is stored once). */
function thresholdEvents(
  invoice: Invoice,
  copy: SubscriptionCopy,
  crossed: readonly PlanThreshold[],
  at: Date,
): Envelope[] {
  const s = copy.subscription;
  return (invoice.applied_usage_thresholds ?? []).map((applied, i) =>
    domainEvent(Subjects.invoicing.subscriptionUsageThresholdReached, {
      organizationId: invoice.organization_id,
      occurredAt: at,
      id: derivedUuid(`${invoice.id}|usage_threshold_reached|${crossed[i]!.svc_id}|${i}`),
      data: {
        subscription: {
          svc_id: s.svc_id,
          external_id: s.external_id,
          svc_customer_id: s.svc_customer_id,
          external_customer_id: s.external_customer_id,
          plan_code: copy.plan.code,
        },
        usage_threshold: applied.usage_threshold,
        lifetime_usage_amount_cents: applied.lifetime_usage_amount_cents,
        svc_invoice_id: invoice.id,
        reached_at: at.toISOString(),
      },
    }),
  );
}

/**
 * Progressive billing (billing-rules §5), for the subscriptions an envelope of ingested events
 * touched: ONE read finds which of them bill progressively (active, with usage thresholds), all
 * of those are priced with ONE usage call (never a read per event), then one invoice query and one
 * keyed read each.
 * Crossing one or more thresholds stores ONE progressive_billing invoice (id derived from the
 * crossing: a redelivery, a restart or a second replica stores it once) with one
 * `usage_threshold_reached` event per threshold in its outbox, then finalizes it at once (an
 * interrupted finalization is resumed by the due pass: `finalize_at` is now). Returns the
 * invoices it stored or found for crossings.
 */
export async function checkUsageThresholds(
  deps: FinalizeDeps & Pick<ProgressiveDeps, "logger" | "progressive">,
  organizationId: string,
  externalSubscriptionIds: readonly string[],
  options: { sandbox: boolean },
): Promise<string[]> {
  const now = deps.clock.now();
  const started = performance.now();
  const found = await deps.progressive.progressiveCopies(organizationId, [...new Set(externalSubscriptionIds)]);
  const candidates = found.map((key) => {
    const copy: SubscriptionCopy = {
      id: key.id,
      organization_id: organizationId,
      subscription: key.subscription,
      plan: key.plan,
      sandbox: options.sandbox,
      version: key.version,
      next_billing_at: null,
      next_billing_reason: null,
      last_billed_at: null,
      last_billed_reason: null,
    };
    return { copy, externalCustomerId: key.external_customer_id, period: currentChargesPeriod(copy, now) };
  });
  if (candidates.length === 0) return [];
  // every event acknowledged before the call counts (consistent), as an invoice's usage does
  const usage = await deps.usage.chargeUsage(
    candidates.map(({ copy, period }) => ({
      organizationId,
      subscriptionId: copy.id,
      externalSubscriptionId: copy.subscription.external_id,
      from: period.from_datetime,
      to: period.to_datetime,
      periodDays: period.period_days,
      billedDays: period.billed_days,
    })),
    true,
  );

  const priced = performance.now();
  // the lifetime usage of all of them: one invoice query, one historical-usage read
  const externals = candidates.map((c) => c.copy.subscription.external_id);
  const [invoicesOf, historicalOf] = await Promise.all([
    deps.progressive.invoicesOfMany(organizationId, externals),
    deps.progressive.historicalUsageMany(organizationId, externals),
  ]);

  const measured = performance.now();
  const invoiced: string[] = [];
  const toFinalize: string[] = [];
  await runBounded(
    candidates.map((c, i) => ({ ...c, fees: usage[i]?.fees ?? [] })),
    deps.limits.concurrency,
    async ({ copy, period, fees }) => {
      const external = copy.subscription.external_id;
      const measured = lifetimeState(
        invoicesOf.get(external) ?? [],
        external,
        period.from_datetime,
        historicalOf.get(external) ?? 0,
      );
      const current = progressiveUsageCents(copy, fees);
      const crossed = crossedThresholds(copy, measured, current);
      if (crossed.length === 0) return;
      const id = progressiveInvoiceIdOf(copy, period.from_datetime, measured);
      // the latest progressive invoice whole (its fees are credited on the new one)
      const latest = measured.latest_progressive ? await deps.invoices.findById(measured.latest_progressive.id) : null;
      const state = { ...measured, latest_progressive: latest };
      let stored = await deps.invoices.findById(id);
      if (!stored) {
        const customer = await deps.copies.customer(copy.subscription.svc_customer_id);
        // the crossing is not acknowledged without its invoice: the usage envelope comes back (backoff) once the customer's copy is there
        if (!customer)
          throw new RetryLater(
            `usage threshold of subscription ${copy.id} crossed before its customer's copy arrived`,
            1000,
          );
        const c = customer.customer;
        const entity = c.billing_entity_code
          ? await deps.billingEntities.get(organizationId, c.billing_entity_code)
          : null;
        const invoice = newProgressiveInvoice({
          id,
          copy,
          customer,
          entity,
          terms: invoicingTerms(c, entity),
          period,
          chargeFees: fees,
          state,
          crossed,
          lifetimeUsageCents: state.historical_usage_cents + state.invoiced_usage_cents + current,
          sandbox: options.sandbox,
          now,
        });
        const events = thresholdEvents(invoice, copy, crossed, now);
        if (await deps.invoices.insert(invoice, events)) {
          await deps.publish(invoice.id, events);
          stored = invoice;
        } else {
          stored = await deps.invoices.findById(id); // another replica, or a redelivery, stored it first
        }
      }
      if (!stored) return;
      invoiced.push(stored.id);
      if (stored.status === "generating") toFinalize.push(stored.id);
    },
  );
  // finalized together, at once (numbered as one block per counter, as a billing pass's invoices)
  if (toFinalize.length > 0) await finalizeOpenInvoices(deps, toFinalize, { refresh: false });
  const ms = (t: number) => Math.round(t);
  deps.logger.info(
    {
      organization_id: organizationId,
      subscriptions: externalSubscriptionIds.length,
      progressive: candidates.length,
      crossings: invoiced.length,
      usage_ms: ms(priced - started),
      lifetime_ms: ms(measured - priced),
      invoicing_ms: ms(performance.now() - measured),
    },
    "usage thresholds checked",
  );
  return invoiced;
}
