import { derivedUuid } from "@billing/codes";
import type { CustomerViewData, PlanViewData } from "@billing/contracts";
import { documentNumberPrefix, draftInvoiceNumber, paidFeesTotals } from "@billing/pricing";
import type { Fee, Invoice, InvoiceLine } from "./invoice";
import type { Finalization } from "./compose-invoice";
import { invoiceDates, type BillingEntityTerms, type InvoicingTerms } from "./invoicing-terms";

/**
 * Lago's `advance_charges` invoice: at a billing run (periodic, termination, upgrade), the
 * pay-in-advance fees of not-invoiceable charges that were PAID (payment_status succeeded, by
 * PUT /fees/{id}) and wait for no invoice are gathered on one invoice of their own, per customer
 * and billing instant, when a plan of theirs regroups paid fees (`regroup_paid_fees: "invoice"`).
 * Its totals are the fees' own (already taxed, already paid): no coupon, credit note, prepaid
 * credit nor progressive credit; it is finalized at once and paid (payment_status succeeded).
 * The periodic invoice never carries them. A fee not paid yet waits for a later run; a
 * not-invoiceable charge whose plan regroups nothing is never invoiced (as in Lago).
 */

/** Whether a plan regroups its paid pay-in-advance fees on an advance_charges invoice. */
export const regroupsPaidFees = (plan: Pick<PlanViewData, "charges">) =>
  plan.charges.some((c) => c.pay_in_advance && !c.invoiceable && c.regroup_paid_fees === "invoice");

/** The advance_charges invoice of a customer at a billing instant: derived (a retry or a second replica writes it once). */
export const advanceChargesInvoiceIdOf = (organizationId: string, customerId: string, billedAt: Date) =>
  derivedUuid(`advance_charges|${organizationId}|${customerId}|${billedAt.toISOString()}`);

export interface AdvanceChargesInput {
  organizationId: string;
  customer: { id: string; customer: CustomerViewData };
  entity: BillingEntityTerms | null;
  terms: InvoicingTerms;
  sandbox: boolean;
  billedAt: Date;
  currency: string;
  /** the paid fees gathered, oldest first (each taxed when it was created) */
  fees: readonly Fee[];
  /** per subscription gathered: its plan and the charges span of this billing (Lago: the latest subscription's) */
  subscriptions: ReadonlyArray<{
    subscription_id: string;
    external_subscription_id: string;
    plan_id: string;
    plan_code: string;
    from: Date | null;
    to: Date | null;
  }>;
  now: Date;
}

const amountsOf = (fees: readonly Fee[]) => {
  const t = paidFeesTotals(fees);
  return {
    amounts: {
      fees_amount_cents: t.fees_amount_cents,
      progressive_billing_credit_amount_cents: 0,
      coupons_amount_cents: 0,
      sub_total_excluding_taxes_amount_cents: t.sub_total_excluding_taxes_amount_cents,
      taxes_amount_cents: t.taxes_amount_cents,
      taxes_rate: t.taxes_rate,
      sub_total_including_taxes_amount_cents: t.sub_total_including_taxes_amount_cents,
      credit_notes_amount_cents: 0,
      prepaid_credit_amount_cents: 0,
      total_amount_cents: t.total_amount_cents,
    },
    applied_taxes: t.applied_taxes.map((a) => {
      const tax = fees.flatMap((f) => f.taxes).find((x) => x.code === a.tax_code);
      return {
        tax_code: a.tax_code,
        tax_name: a.tax_name ?? tax?.name ?? a.tax_code,
        tax_rate: a.tax_rate,
        tax_id: tax?.svc_id ?? null,
        tax_description: tax?.description ?? null,
        amount_cents: a.amount_cents,
        fees_amount_cents: a.fees_amount_cents,
      };
    }),
  };
};

/** The advance_charges invoice, stored `generating` and finalized at once (numbered by the invoice pipeline). Pure. */
export function advanceChargesInvoice(input: AdvanceChargesInput): Invoice {
  const { customer } = input;
  const id = advanceChargesInvoiceIdOf(input.organizationId, customer.id, input.billedAt);
  const dates = invoiceDates({ ...input.terms, graceDays: 0, anchor: null, adjustment: null }, input.billedAt, []);
  const lines: InvoiceLine[] = input.subscriptions.map((s) => ({
    subscription_id: s.subscription_id,
    external_subscription_id: s.external_subscription_id,
    plan_id: s.plan_id,
    plan_code: s.plan_code,
    reason: "subscription_periodic",
    invoicing_reason: "in_advance_charge_periodic",
    at: input.billedAt,
    // only charges by design: the charges span stands for both (Lago)
    subscription_from: s.from,
    subscription_to: s.to,
    charges_from: s.from,
    charges_to: s.to,
  }));
  return {
    id,
    organization_id: input.organizationId,
    customer_id: customer.id,
    external_customer_id: customer.customer.external_id,
    billing_entity_code: customer.customer.billing_entity_code ?? input.entity?.code ?? null,
    sandbox: input.sandbox,
    invoice_type: "advance_charges",
    billed_at: input.billedAt,
    part: 0,
    lines,
    status: "generating",
    payment_status: "pending",
    number: draftInvoiceNumber(input.entity ? documentNumberPrefix(input.entity) : "INV"),
    sequential_id: null,
    currency: input.currency,
    issuing_date: dates.issuing_date,
    payment_due_date: dates.payment_due_date,
    net_payment_term: dates.net_payment_term,
    expected_finalization_date: null,
    finalize_at: input.now,
    customer: customer.customer,
    fees: input.fees.map((f) => ({ ...f })),
    ...amountsOf(input.fees),
    credits: [],
    metadata: [],
    finalizing: null,
    revision: 0,
    created_at: input.now,
    updated_at: input.now,
  };
}

/** An advance_charges invoice finalized: its own totals kept, number and customer as finalized, paid already. Pure. */
export function finalizedAdvanceCharges(invoice: Invoice, f: Finalization): Invoice {
  const { amounts, applied_taxes } = amountsOf(invoice.fees);
  return {
    ...invoice,
    status: f.numbered ? "finalized" : "closed",
    // paid before it was issued: what its fees' payments brought
    payment_status: "succeeded",
    total_paid_amount_cents: amounts.total_amount_cents,
    number: f.numbered?.number ?? invoice.number,
    sequential_id: f.numbered?.sequential_id ?? null,
    customer: f.customer,
    amounts,
    applied_taxes,
    expected_finalization_date: null,
    finalize_at: null,
    finalizing: null,
    updated_at: new Date(Math.max(f.now.getTime(), invoice.updated_at.getTime() + 1)),
  };
}
