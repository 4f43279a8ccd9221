import { LOST_RACE, retryOnLostRace } from "@billing/mongo";
import { documentNumberPrefix, formatInvoiceNumber, type DocumentNumbering } from "@billing/pricing";
import { finalizedInvoice } from "../../domain/compose-invoice";
import { OPEN_STATUSES, type FeeDraft, type FinalizationPlan, type Invoice, type InvoiceCredit, type PlannedCoupon } from "../../domain/invoice";
import { numberingScopes } from "../../domain/invoice-number";
import { priceInvoice } from "../../domain/invoice-totals";
import { finalizationDates, invoicingTerms, type BillingEntityTerms } from "../../domain/invoicing-terms";
import { finalizedEvents } from "../../events/invoice-events";
import type { InvoicingDeps } from "../deps";
import { refreshDraft } from "./refresh-draft";

const isOpen = (invoice: Invoice | null): invoice is Invoice => !!invoice && OPEN_STATUSES.includes(invoice.status);

/**
 * THE way an invoice is finalized (at once without a grace period, at the end of its grace period,
 * or on request), in steps that each survive a crash and a concurrent finalizer:
 * 1. the plan — the fees it finalizes (a draft's read again when `refresh`) and the coupon credits
 *    it takes — is stored on the invoice first; whoever stores it first decides for everyone, and
 *    an interrupted finalization is resumed by the next due pass;
 * 2. each credit is consumed in the catalog, idempotently per invoice (a retry consumes nothing twice);
 * 3. numbers are taken from the gap-free counters (a retry gets the same ones);
 * 4. the finalized invoice and its events are written in one conditional update.
 * A zero-amount invoice the customer does not finalize is closed: no number, no events.
 * Returns the invoice as stored; null when it does not exist.
 */
export async function finalizeOpenInvoice(deps: InvoicingDeps, invoiceId: string, options: { refresh: boolean }): Promise<Invoice | null> {
  const planned = await retryOnLostRace(`finalization of invoice ${invoiceId}`, async () => {
    const invoice = await deps.invoices.findById(invoiceId);
    if (!isOpen(invoice) || invoice.finalizing) return invoice;
    const plan = await planFinalization(deps, invoice, options.refresh && invoice.status === "draft");
    const stored = await deps.invoices.changeOpen(invoice, { set: { finalizing: plan }, finalizeBy: deps.clock.now() });
    return stored ? { ...invoice, finalizing: plan, revision: invoice.revision + 1 } : LOST_RACE;
  });
  if (!isOpen(planned) || !planned.finalizing) return planned;
  const plan = planned.finalizing;

  const customer = (await deps.copies.customer(planned.customer_id))?.customer ?? planned.customer;
  const entity = planned.billing_entity_code ? await deps.billingEntities.get(planned.organization_id, planned.billing_entity_code) : null;
  const { consumed, credits } = await consumeCoupons(deps, planned, plan);
  const terms = invoicingTerms(customer, entity);
  const feesAmount = plan.fees.reduce((n, f) => n + f.amount_cents, 0);
  const closed = feesAmount === 0 && !terms.finalizeZero;
  const numbered = closed ? null : await numberOf(deps, planned, customer.sequential_id, entity);
  const now = deps.clock.now();
  const dates = planned.status === "draft" ? finalizationDates(planned, terms, now) : null;
  const final = finalizedInvoice(planned, { fees: plan.fees, consumed, credits, numbered, customer, dates, now });

  return retryOnLostRace(`finalization of invoice ${invoiceId}`, async () => {
    const current = await deps.invoices.findById(invoiceId);
    if (!isOpen(current)) return current; // finalized by someone else meanwhile
    const events = finalizedEvents(final, current.status === "draft", now);
    const { id: _id, revision: _revision, ...fields } = final;
    if (!(await deps.invoices.changeOpen(current, { set: fields, events }))) return LOST_RACE;
    await deps.publish(invoiceId, events);
    return { ...final, revision: current.revision + 1 };
  });
}

/** The fees to finalize and the coupon credits they take (billing-rules §3: coupons only when finalizing, on positive fees). */
async function planFinalization(deps: InvoicingDeps, invoice: Invoice, refresh: boolean): Promise<FinalizationPlan> {
  const fees: FeeDraft[] = refresh ? (await refreshDraft(deps, invoice)).fees : invoice.fees;
  const positive = fees.reduce((n, f) => n + f.amount_cents, 0) > 0;
  const coupons = positive ? await deps.appliedCoupons.active(invoice.organization_id, invoice.customer_id) : [];
  const priced = priceInvoice({ currency: invoice.currency, fees, coupons: coupons.map((c) => c.input), finalizing: true });
  return { fees, coupons: priced.coupons };
}

/** Consumes the planned credits (idempotent per invoice); a coupon the catalog refuses now gives nothing. */
async function consumeCoupons(deps: InvoicingDeps, invoice: Invoice, plan: FinalizationPlan) {
  const consumed: PlannedCoupon[] = [];
  const credits: InvoiceCredit[] = [];
  for (const planned of plan.coupons) {
    const credit = await deps.appliedCoupons.consume(invoice.organization_id, invoice.id, {
      applied_coupon_id: planned.coupon.id, amount_cents: planned.amount_cents, currency: invoice.currency,
    });
    if (!credit) continue;
    consumed.push({ ...planned, amount_cents: credit.amount_cents });
    credits.push(credit);
  }
  return { consumed, credits };
}

/** The invoice's numbers from the billing entity's and the customer's counters, and its document number. */
async function numberOf(deps: InvoicingDeps, invoice: Invoice, customerSequentialId: number, entity: BillingEntityTerms | null) {
  const scopes = numberingScopes(invoice.organization_id, invoice.billing_entity_code ?? "default", invoice.customer_id);
  const entitySequence = await deps.numbers.allocate({ key: scopes.entity, role: "entity" }, invoice.id);
  const customerSequence = await deps.numbers.allocate({ key: scopes.customer, role: "customer" }, invoice.id);
  const numbering = (entity?.document_numbering ?? "per_customer") as DocumentNumbering;
  const number = formatInvoiceNumber({
    document_numbering: numbering,
    prefix: entity ? documentNumberPrefix(entity) : "INV",
    sequence: numbering === "per_customer" ? customerSequence : entitySequence,
    customer_sequential_id: customerSequentialId,
    finalized_at: deps.clock.now(),
    timezone: entity?.timezone || invoice.customer.applicable_timezone || "UTC",
  });
  return { number, sequential_id: customerSequence };
}
