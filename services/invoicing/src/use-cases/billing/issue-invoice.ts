import { derivedUuid } from "@billing/bus";
import { invoiceIssuingDates, type IssuingDateAnchor, type IssuingDateAdjustment } from "@billing/pricing";
import type { CustomerCopy } from "../../domain/copies";
import { composeInvoice, type InvoiceLine } from "../../domain/compose-invoice";
import type { Invoice } from "../../domain/invoice";
import { invoiceEvents } from "../../events/invoice-events";
import type { BillingEntity } from "../../peers/billing-entities";
import type { InvoicingDeps } from "../deps";
import { invoiceNumber } from "../invoices/invoice-number";

export interface InvoiceRequest {
  organizationId: string;
  customer: CustomerCopy;
  billedAt: Date;
  reason: Invoice["reason"];
  /** The subscriptions it bills, each with what it covers (charge fees are asked of usage here). */
  lines: Array<Omit<InvoiceLine, "chargeFees">>;
  sandbox: boolean;
}

/** The invoice of a (customer, instant, reason): derived, so a retry or a second replica writes the same document. */
export const invoiceIdOf = (r: Pick<InvoiceRequest, "organizationId" | "customer" | "billedAt" | "reason">) =>
  derivedUuid(`invoice|${r.organizationId}|${r.customer.id}|${r.billedAt.toISOString()}|${r.reason}`);

/** Grace period, numbering and payment terms: the customer's settings, else its billing entity's. */
export function invoicingTerms(customer: CustomerCopy, entity: BillingEntity | null) {
  const c = customer.customer;
  return {
    graceDays: c.billing_configuration.invoice_grace_period ?? entity?.invoice_grace_period ?? 0,
    netPaymentTerm: c.net_payment_term ?? entity?.net_payment_term ?? 0,
    finalizeZero: c.finalize_zero_amount_invoice === "finalize" || (c.finalize_zero_amount_invoice !== "skip" && (entity?.finalize_zero_amount_invoice ?? true)),
    anchor: (c.billing_configuration.subscription_invoice_issuing_date_anchor ?? entity?.subscription_invoice_issuing_date_anchor ?? null) as IssuingDateAnchor | null,
    adjustment: (c.billing_configuration.subscription_invoice_issuing_date_adjustment ?? entity?.subscription_invoice_issuing_date_adjustment ?? null) as IssuingDateAdjustment | null,
  };
}

/**
 * Prices and stores one subscription invoice: the charge fees of every line from the usage
 * service (one call for all of them, consistent with every acknowledged event), the base fees
 * from the lines' periods, totals from the pricing library; a draft while the grace period runs,
 * else finalized and numbered at once. Returns the stored invoice (the existing one when this
 * (customer, instant, reason) was already invoiced).
 */
export async function issueInvoice(deps: InvoicingDeps, request: InvoiceRequest): Promise<Invoice> {
  const id = invoiceIdOf(request);
  const existing = await deps.invoices.findById(id);
  if (existing) return existing;
  const now = deps.clock.now();
  const customer = request.customer.customer;
  const entity = customer.billing_entity_code ? await deps.billingEntities.get(request.organizationId, customer.billing_entity_code) : null;
  const terms = invoicingTerms(request.customer, entity);
  const lines = await withChargeFees(deps, request.organizationId, request.lines);
  const zone = customer.applicable_timezone || "UTC";
  const dates = invoiceIssuingDates({
    invoicing_at: request.billedAt, timezone: zone, invoice_type: "subscription", periodic: request.reason === "subscription_periodic",
    grace_period_days: terms.graceDays, anchor: terms.anchor, adjustment: terms.adjustment,
  });
  const draft = terms.graceDays > 0;
  const currency = lines[0]?.copy.plan.amount_currency ?? customer.currency ?? "USD";
  const base = {
    id, customer: customer, billingEntityCode: customer.billing_entity_code ?? null, currency, lines,
    issuingDate: dates.issuing_date, netPaymentTerm: terms.netPaymentTerm, now, createdAt: now,
  };
  let view = composeInvoice({ ...base, finalizing: false, status: "draft", number: `${entity?.document_number_prefix ?? "INV"}-DRAFT`, sequentialId: null });
  const invoice: Invoice = {
    id, organization_id: request.organizationId, customer_id: request.customer.id, external_customer_id: customer.external_id,
    billed_at: request.billedAt, reason: request.reason, status: "draft",
    // the grace period runs `graceDays` from the billing instant (a day boundary in the customer's zone)
    finalize_at: draft ? new Date(request.billedAt.getTime() + terms.graceDays * 86_400_000) : null,
    sandbox: request.sandbox, lines: request.lines.map((l) => ({ subscription_id: l.copy.id, reason: l.reason })), view,
    created_at: now, updated_at: now,
  };
  if (!draft) {
    const numbered = await invoiceNumber(deps, invoice, entity, zone);
    const status = view.fees_amount_cents === 0 && !terms.finalizeZero ? "closed" : "finalized";
    view = composeInvoice({ ...base, finalizing: true, status, number: numbered.number, sequentialId: numbered.sequentialId });
    Object.assign(invoice, { status, view });
  }
  const events = invoiceEvents(view, request.organizationId, now, true);
  if (!(await deps.invoices.insert(invoice, events))) return (await deps.invoices.findById(id))!;
  await deps.publish(id, events);
  return invoice;
}

/** Asks the usage service for every line's charge fees in one call. */
export async function withChargeFees(deps: InvoicingDeps, organizationId: string, lines: Array<Omit<InvoiceLine, "chargeFees">>): Promise<InvoiceLine[]> {
  const asks = lines.flatMap((l) =>
    l.periods.charges
      ? [{
          organizationId, subscriptionId: l.copy.id, externalSubscriptionId: l.copy.subscription.external_id,
          from: l.periods.charges.from_datetime, to: l.periods.charges.to_datetime, periodDays: l.periods.charges.period_days,
          billedDays: l.periods.charges.billed_days,
        }]
      : [],
  );
  const priced = await deps.usage.chargeUsage(asks, true);
  const byId = new Map(priced.map((p) => [p.subscription_id, p.fees]));
  return lines.map((l) => ({ ...l, chargeFees: l.periods.charges ? byId.get(l.copy.id) ?? [] : [] }));
}
