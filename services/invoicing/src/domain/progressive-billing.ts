import { derivedUuid } from "@billing/codes";
import type { CustomerViewData } from "@billing/contracts";
import {
  crossedUsageThresholds,
  documentNumberPrefix,
  draftInvoiceNumber,
  progressiveCreditAmount,
  type BillingPeriod,
} from "@billing/pricing";
import type { SubscriptionCopy } from "./copies";
import {
  progressiveCreditParts,
  type AppliedUsageThreshold,
  type Invoice,
  type InvoiceLine,
  type ProgressiveCredit,
  type ProgressiveCreditPart,
} from "./invoice";
import { invoiceFees, type ChargeFee } from "./invoice-fees";
import { priceInvoice } from "./invoice-totals";
import { invoiceDates, type BillingEntityTerms, type InvoicingTerms } from "./invoicing-terms";

/** A threshold as the plan copy carries it. */
export type PlanThreshold = SubscriptionCopy["plan"]["usage_thresholds"][number];

/**
 * Where a subscription's lifetime usage stands (billing-rules §5): historical (imported), invoiced
 * (the charge fees of its subscription invoices), and the latest progressive invoice of the
 * current charges period (its fees are the period-to-date usage already billed).
 */
export interface LifetimeState {
  historical_usage_cents: number;
  invoiced_usage_cents: number;
  /** the latest progressive invoice of the period (generating or finalized), if any */
  latest_progressive: Invoice | null;
  progressive_billed_cents: number;
}

const sameInstant = (a: Date | string | null | undefined, b: Date) => !!a && new Date(a).getTime() === b.getTime();
const newestFirst = (a: Invoice, b: Invoice) =>
  new Date(b.billed_at).getTime() - new Date(a.billed_at).getTime() ||
  new Date(b.created_at).getTime() - new Date(a.created_at).getTime();

/** The latest progressive invoice of an external subscription whose charges period starts at `periodFrom`. */
export function latestProgressiveInvoice(
  invoices: readonly Invoice[],
  externalSubscriptionId: string,
  periodFrom: Date,
): Invoice | null {
  return (
    invoices
      .filter(
        (i) => i.invoice_type === "progressive_billing" && (i.status === "finalized" || i.status === "generating"),
      )
      .filter((i) =>
        i.lines.some(
          (l) => l.external_subscription_id === externalSubscriptionId && sameInstant(l.charges_from, periodFrom),
        ),
      )
      .sort(newestFirst)[0] ?? null
  );
}

/** The lifetime usage state of an external subscription from its invoices and historical usage. Pure. */
export function lifetimeState(
  invoices: readonly Invoice[],
  externalSubscriptionId: string,
  periodFrom: Date,
  historicalCents: number,
): LifetimeState {
  const invoiced = invoices
    .filter((i) => i.invoice_type === "subscription")
    .flatMap((i) => i.fees)
    .filter((f) => f.fee_type === "charge" && f.external_subscription_id === externalSubscriptionId)
    .reduce((sum, f) => sum + f.amount_cents, 0);
  const latest = latestProgressiveInvoice(invoices, externalSubscriptionId, periodFrom);
  return {
    historical_usage_cents: historicalCents,
    invoiced_usage_cents: invoiced,
    latest_progressive: latest,
    progressive_billed_cents: latest?.amounts.fees_amount_cents ?? 0,
  };
}

/** The thresholds a subscription's usage crosses now, smallest first (none when it does not bill progressively). */
export function crossedThresholds(
  copy: SubscriptionCopy,
  state: LifetimeState,
  currentUsageCents: number,
): PlanThreshold[] {
  const thresholds = copy.plan.usage_thresholds ?? [];
  if (thresholds.length === 0 || copy.subscription.status !== "active") return [];
  const crossed = new Set(
    crossedUsageThresholds({
      thresholds,
      historical_usage_cents: state.historical_usage_cents,
      invoiced_usage_cents: state.invoiced_usage_cents,
      current_usage_cents: currentUsageCents,
      progressive_billed_cents: state.progressive_billed_cents,
    }),
  );
  return thresholds
    .filter((t) => crossed.has(t))
    .sort((a, b) => Number(a.recurring) - Number(b.recurring) || a.amount_cents - b.amount_cents);
}

/**
 * The id of the progressive invoice of one crossing: derived from the subscription, its charges
 * period and the lifetime usage already invoiced when it was crossed (not from the usage read, nor
 * from which thresholds it crossed). Every checker that starts from the same state (a redelivered
 * envelope, a second replica, a restart, a test clock step) derives the same id, so that state
 * gives ONE invoice however much usage each checker saw; a threshold the stored one did not cross
 * is crossed again from the next state (a larger invoiced amount, so another id).
 */
export function progressiveInvoiceIdOf(copy: SubscriptionCopy, periodFrom: Date, state: LifetimeState): string {
  const invoiced = state.historical_usage_cents + state.invoiced_usage_cents + state.progressive_billed_cents;
  return derivedUuid(`progressive|${copy.organization_id}|${copy.id}|${periodFrom.toISOString()}|${invoiced}`);
}

/**
 * What the latest progressive invoice of the period credits to the next invoice of that
 * subscription (billing-rules §3.2): its fees less its coupons, spread on the matching charge fees
 * of that subscription.
 */
export function progressiveCreditFrom(previous: Invoice, subscriptionId: string): ProgressiveCredit {
  const part: ProgressiveCreditPart = {
    subscription_id: subscriptionId,
    progressive_invoice_id: previous.id,
    amount_cents: progressiveCreditAmount({
      fees_amount_cents: previous.amounts.fees_amount_cents,
      coupons_amount_cents: previous.amounts.coupons_amount_cents,
    }),
    previous_fees: previous.fees
      .filter((f) => f.fee_type === "charge" && f.subscription_id === subscriptionId && f.charge_id)
      .map((f) => ({
        charge_id: f.charge_id!,
        charge_filter_id: f.charge_filter_index === null ? null : String(f.charge_filter_index),
        grouped_by: f.item.grouped_by,
        amount_cents: f.amount_cents,
      })),
  };
  return {
    amount_cents: part.amount_cents,
    previous_fees: part.previous_fees,
    progressive_invoice_ids: [previous.id],
    parts: [part],
  };
}

/** Several subscriptions' credits on one invoice (an invoice bills each subscription's period once): each kept as its own part. */
export function mergedProgressiveCredit(credits: readonly ProgressiveCredit[]): ProgressiveCredit | null {
  if (credits.length === 0) return null;
  return {
    amount_cents: credits.reduce((sum, c) => sum + c.amount_cents, 0),
    previous_fees: credits.flatMap((c) => c.previous_fees),
    progressive_invoice_ids: credits.flatMap((c) => c.progressive_invoice_ids),
    parts: credits.flatMap((c) => progressiveCreditParts(c) ?? []),
  };
}

export interface NewProgressiveInvoiceInput {
  id: string;
  copy: SubscriptionCopy;
  customer: { id: string; customer: CustomerViewData };
  entity: BillingEntityTerms | null;
  terms: InvoicingTerms;
  period: BillingPeriod;
  chargeFees: ChargeFee[];
  state: LifetimeState;
  crossed: readonly PlanThreshold[];
  lifetimeUsageCents: number;
  sandbox: boolean;
  now: Date;
}

/**
 * A progressive_billing invoice (billing-rules §5): the period-to-date fees of the subscription's
 * in-arrears invoiceable charges (no base fee, no pay-in-advance charge, no true-up), credited by
 * the latest progressive invoice of the period, issued today and finalized at once (`generating`).
 * Pure.
 */
export function newProgressiveInvoice(input: NewProgressiveInvoiceInput): Invoice {
  const { copy, customer, period } = input;
  const currency = copy.plan.amount_currency;
  const line: InvoiceLine = {
    subscription_id: copy.id,
    external_subscription_id: copy.subscription.external_id,
    plan_id: copy.plan.svc_id,
    plan_code: copy.plan.code,
    reason: "subscription_periodic",
    invoicing_reason: "progressive_billing",
    at: input.now,
    subscription_from: period.from_datetime,
    subscription_to: period.to_datetime,
    charges_from: period.from_datetime,
    charges_to: period.to_datetime,
  };
  const fees = invoiceFees(
    { invoiceId: input.id, customer: customer.customer, entityTaxes: input.entity?.taxes ?? [], currency },
    [
      {
        copy,
        line,
        chargeFees: input.chargeFees,
        periods: {
          subscription: null,
          charges: period,
          fixed_charges: null,
          fixed_charges_in_advance: null,
          commitment: null,
        },
      },
    ],
  ).filter(
    (f) =>
      f.fee_type === "charge" &&
      f.charge_id !== null &&
      progressiveCharges(copy).has(f.charge_id) &&
      !f.pay_in_advance &&
      !f.true_up,
  );
  const progressiveCredit = input.state.latest_progressive
    ? progressiveCreditFrom(input.state.latest_progressive, copy.id)
    : null;
  const priced = priceInvoice({ currency, fees, coupons: [], finalizing: false, progressiveCredit });
  const dates = invoiceDates(input.terms, input.now, [], "progressive_billing");
  const applied: AppliedUsageThreshold[] = input.crossed.map((t) => ({
    lifetime_usage_amount_cents: input.lifetimeUsageCents,
    created_at: input.now,
    usage_threshold: {
      svc_id: t.svc_id,
      threshold_display_name: t.threshold_display_name ?? null,
      amount_cents: t.amount_cents,
      recurring: t.recurring,
      created_at: t.created_at ?? copy.plan.created_at ?? null,
      updated_at: t.updated_at ?? copy.plan.updated_at ?? null,
    },
  }));
  return {
    id: input.id,
    organization_id: copy.organization_id,
    customer_id: customer.id,
    external_customer_id: customer.customer.external_id,
    billing_entity_code: customer.customer.billing_entity_code ?? input.entity?.code ?? null,
    sandbox: input.sandbox,
    invoice_type: "progressive_billing",
    billed_at: input.now,
    part: 0,
    lines: [line],
    status: "generating",
    payment_status: "pending",
    number: draftInvoiceNumber(input.entity ? documentNumberPrefix(input.entity) : "INV"),
    sequential_id: null,
    currency,
    issuing_date: dates.issuing_date,
    payment_due_date: dates.payment_due_date,
    net_payment_term: dates.net_payment_term,
    expected_finalization_date: null,
    finalize_at: input.now,
    customer: customer.customer,
    fees: priced.fees,
    amounts: priced.amounts,
    applied_taxes: priced.applied_taxes,
    credits: [],
    metadata: [],
    finalizing: null,
    progressive_credit: progressiveCredit,
    applied_usage_thresholds: applied,
    revision: 0,
    created_at: input.now,
    updated_at: input.now,
  };
}

/**
 * The period-to-date usage the thresholds are measured against: the amounts of the charge fees a
 * progressive invoice would bill (in-arrears, invoiceable, no true-up), as the usage service priced them.
 */
export function progressiveUsageCents(copy: SubscriptionCopy, chargeFees: readonly ChargeFee[]): number {
  const billed = progressiveCharges(copy);
  return chargeFees
    .filter((f) => f.persistable && !f.true_up && billed.has(f.charge_id))
    .reduce((sum, f) => sum + Number(f.amount_cents), 0);
}

/** The charges a progressive invoice bills: the plan's in-arrears invoiceable ones. */
const progressiveCharges = (copy: SubscriptionCopy) =>
  new Set(copy.plan.charges.filter((c) => !c.pay_in_advance && c.invoiceable !== false).map((c) => c.svc_id));
