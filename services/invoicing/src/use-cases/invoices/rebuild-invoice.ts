import { AppError } from "@billing/errors";
import { localDateOf, subscriptionInvoicePeriods } from "@billing/pricing";
import { timingOf } from "../../domain/billing-schedule";
import { composeInvoice } from "../../domain/compose-invoice";
import type { Invoice } from "../../domain/invoice";
import { invoiceEvents } from "../../events/invoice-events";
import { invoicingTerms, withChargeFees } from "../billing/issue-invoice";
import type { InvoicingDeps } from "../deps";
import { invoiceNumber } from "./invoice-number";

/**
 * A draft recomputed from the usage stored now (late events count) and, when `finalize`, numbered
 * and finalized (or closed at zero when the customer skips those). One conditional write: a draft
 * changed meanwhile is read again; an invoice no longer a draft is `invoice_not_found`, as Lago.
 */
export async function rebuildDraft(deps: InvoicingDeps, organizationId: string, id: string, finalize: boolean): Promise<Invoice> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const draft = await deps.invoices.find(organizationId, id);
    if (!draft || draft.status !== "draft") throw AppError.notFound("invoice");
    const customer = await deps.copies.customer(draft.customer_id);
    if (!customer) throw AppError.notFound("invoice");
    const c = customer.customer;
    const entity = c.billing_entity_code ? await deps.billingEntities.get(organizationId, c.billing_entity_code) : null;
    const terms = invoicingTerms(customer, entity);
    const zone = c.applicable_timezone || "UTC";
    const lines = [];
    for (const line of draft.lines) {
      const copy = await deps.copies.subscription(line.subscription_id);
      if (!copy) continue;
      const s = copy.subscription;
      const plan = { amount_cents: copy.plan.amount_cents, pay_in_advance: copy.plan.pay_in_advance, trial_period: copy.plan.trial_period };
      const periods = subscriptionInvoicePeriods({
        timing: timingOf(s, copy.plan), plan, reason: line.reason,
        billing_date: localDateOf(line.reason === "subscription_starting" && s.started_at ? s.started_at : draft.billed_at, s.timezone),
      });
      lines.push({ copy, reason: line.reason, periods });
    }
    const priced = await withChargeFees(deps, organizationId, lines);
    const now = deps.clock.now();
    const base = {
      id: draft.id, customer: c, billingEntityCode: c.billing_entity_code ?? null, currency: String(draft.view.currency), lines: priced,
      issuingDate: draft.view.issuing_date, netPaymentTerm: terms.netPaymentTerm, now, createdAt: draft.created_at,
    };
    let view = composeInvoice({ ...base, finalizing: false, status: "draft", number: draft.view.number, sequentialId: null });
    let status: Invoice["status"] = "draft";
    if (finalize) {
      const numbered = await invoiceNumber(deps, { ...draft, view }, entity, zone);
      status = view.fees_amount_cents === 0 && !terms.finalizeZero ? "closed" : "finalized";
      view = composeInvoice({ ...base, finalizing: true, status, number: numbered.number, sequentialId: numbered.sequentialId });
    }
    const next: Invoice = { ...draft, status, view, updated_at: new Date(Math.max(now.getTime(), draft.updated_at.getTime() + 1)) };
    const events = finalize ? invoiceEvents(view, organizationId, now, false) : [];
    if (await deps.invoices.replaceDraft(next, draft.updated_at, events)) {
      if (events.length) await deps.publish(id, events);
      return next;
    }
  }
  throw new AppError("unavailable", undefined, undefined, "invoice is being changed concurrently; retry");
}
