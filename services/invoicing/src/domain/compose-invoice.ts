import { derivedUuid } from "@billing/codes";
import type { CustomerViewData } from "@billing/contracts";
import type {
  AppliedCustomSection,
  CustomSection,
  FeeDraft,
  Invoice,
  InvoiceCredit,
  InvoiceLine,
  PlannedCoupon,
  PlannedCreditNote,
  ProgressiveCredit,
} from "./invoice";
import { documentNumberPrefix, draftInvoiceNumber } from "@billing/pricing";
import { invoiceFees, type PricedLine } from "./invoice-fees";
import { consumedCoupons, priceInvoice } from "./invoice-totals";
import { invoiceDates, type BillingEntityTerms, type InvoicingTerms } from "./invoicing-terms";
import { finalizedAdvanceCharges } from "./advance-charges";

/**
 * The id of the invoice of a customer at a billing instant: derived, so a retry, a restart or a
 * second replica writes the same document once. `part` > 0 only when an invoice of that instant
 * already exists without some subscription due then (its copy arrived after it was issued).
 */
export const invoiceIdOf = (organizationId: string, customerId: string, billedAt: Date, part: number) =>
  derivedUuid(`invoice|${organizationId}|${customerId}|${billedAt.toISOString()}|${part}`);

export interface NewInvoiceInput {
  organizationId: string;
  customer: { id: string; customer: CustomerViewData };
  entity: BillingEntityTerms | null;
  terms: InvoicingTerms;
  billedAt: Date;
  part: number;
  sandbox: boolean;
  lines: PricedLine[];
  now: Date;
  /** pay-in-advance fees that waited for this invoice (their own ids and amounts) */
  paidInAdvance?: readonly FeeDraft[];
  /** what the period's progressive invoices credit (use-cases/progressive/progressive-credit.ts) */
  progressiveCredit?: ProgressiveCredit | null;
}

const currencyOf = (lines: readonly PricedLine[], customer: CustomerViewData) =>
  lines[0]?.copy.plan.amount_currency ?? customer.currency ?? "USD";

/**
 * A new subscription invoice: its fees and amounts (no coupons before finalization), its dates,
 * and its state: a draft while the customer's grace period runs, else `generating` (finalized
 * at once). Numbered only at finalization; a draft shows PREFIX-DRAFT. Pure.
 */
export function newInvoice(input: NewInvoiceInput): Invoice {
  const { customer, terms } = input;
  const id = invoiceIdOf(input.organizationId, customer.id, input.billedAt, input.part);
  const currency = currencyOf(input.lines, customer.customer);
  const fees = [
    ...invoiceFees(
      { invoiceId: id, customer: customer.customer, entityTaxes: input.entity?.taxes ?? [], currency },
      input.lines,
    ),
    ...(input.paidInAdvance ?? []),
  ];
  const progressiveCredit = input.progressiveCredit ?? null;
  const priced = priceInvoice({ currency, fees, coupons: [], finalizing: false, progressiveCredit });
  const dates = invoiceDates(
    terms,
    input.billedAt,
    input.lines.map((l) => l.line.reason),
  );
  const draft = terms.graceDays > 0;
  return {
    id,
    organization_id: input.organizationId,
    customer_id: customer.id,
    external_customer_id: customer.customer.external_id,
    billing_entity_code: customer.customer.billing_entity_code ?? input.entity?.code ?? null,
    sandbox: input.sandbox,
    invoice_type: "subscription",
    billed_at: input.billedAt,
    part: input.part,
    lines: input.lines.map((l) => l.line),
    status: draft ? "draft" : "generating",
    payment_status: "pending",
    number: draftInvoiceNumber(input.entity ? documentNumberPrefix(input.entity) : "INV"),
    sequential_id: null,
    currency,
    issuing_date: dates.issuing_date,
    payment_due_date: dates.payment_due_date,
    net_payment_term: dates.net_payment_term,
    expected_finalization_date: dates.expected_finalization_date,
    finalize_at: draft ? dates.grace_ends_at : input.billedAt,
    customer: customer.customer,
    fees: priced.fees,
    amounts: priced.amounts,
    applied_taxes: priced.applied_taxes,
    credits: [],
    metadata: [],
    finalizing: null,
    ...(progressiveCredit ? { progressive_credit: progressiveCredit } : {}),
    revision: 0,
    created_at: input.now,
    updated_at: input.now,
  };
}

/** A draft's new fees and amounts (usage read again): what a refresh writes. Pure. */
export function refreshedDraft(
  invoice: Invoice,
  lines: readonly PricedLine[],
  entity: BillingEntityTerms | null,
  customer: CustomerViewData,
  now: Date,
) {
  // the pay-in-advance fees it gathered stay as they were (usage does not price them again)
  const gathered = invoice.fees.filter((f) => f.pay_in_advance && f.fee_type === "charge");
  const fees = [
    ...invoiceFees(
      { invoiceId: invoice.id, customer, entityTaxes: entity?.taxes ?? [], currency: invoice.currency },
      lines,
    ),
    ...gathered,
  ];
  const priced = priceInvoice({
    currency: invoice.currency,
    fees,
    coupons: [],
    finalizing: false,
    progressiveCredit: invoice.progressive_credit,
  });
  return {
    fees: priced.fees,
    amounts: priced.amounts,
    applied_taxes: priced.applied_taxes,
    lines: lines.map((l) => l.line) as InvoiceLine[],
    customer,
    updated_at: laterOf(now, invoice.updated_at),
  };
}

/** `now`, or just after `before` if the clock has not moved past it (updated_at never goes back). */
export const laterOf = (now: Date, before: Date) => new Date(Math.max(now.getTime(), before.getTime() + 1));

export interface Finalization {
  fees: readonly FeeDraft[];
  /** the coupon credits the catalog recorded, in the order they applied */
  consumed: readonly PlannedCoupon[];
  credits: readonly InvoiceCredit[];
  /** the prepaid credits the wallets recorded, in order */
  prepaid: ReadonlyArray<{ wallet_id: string; amount_cents: number }>;
  /** what the credit notes recorded giving, oldest first (absent: none) */
  creditNotes?: readonly PlannedCreditNote[];
  /** null when closed (a zero-amount invoice the customer does not finalize): closed invoices take no number */
  numbered: { number: string; sequential_id: number } | null;
  customer: CustomerViewData;
  /** new dates when a draft is finalized early (finalizationDates) */
  dates: { issuing_date: string; payment_due_date: string } | null;
  now: Date;
}

/** The finalized (or closed) invoice: coupons as consumed, taxes, totals, number, payment status. Pure. */
export function finalizedInvoice(invoice: Invoice, f: Finalization): Invoice {
  // fees paid before they were invoiced: their own taxes summed, nothing else applies (advance-charges.ts)
  if (invoice.invoice_type === "advance_charges") return finalizedAdvanceCharges(invoice, f);
  const priced = priceInvoice({
    currency: invoice.currency,
    fees: f.fees,
    coupons: consumedCoupons(f.consumed, invoice.currency),
    prepaidConsumed: f.prepaid,
    finalizing: true,
    progressiveCredit: invoice.progressive_credit,
    // credit notes as consumed: each note's balance is what it recorded giving
    creditNotes: (f.creditNotes ?? []).map((n) => ({
      id: n.credit_note_id,
      balance_amount_cents: n.amount_cents,
      created_at: n.created_at,
    })),
  });
  return {
    ...invoice,
    status: f.numbered ? "finalized" : "closed",
    payment_status: priced.amounts.total_amount_cents > 0 ? "pending" : "succeeded",
    number: f.numbered?.number ?? invoice.number,
    sequential_id: f.numbered?.sequential_id ?? null,
    customer: f.customer,
    fees: priced.fees,
    amounts: priced.amounts,
    applied_taxes: priced.applied_taxes,
    credits: [...f.credits, ...creditNoteCredits(invoice.id, f.creditNotes ?? [], invoice.currency)],
    ...(f.dates ?? {}),
    expected_finalization_date: null,
    finalize_at: null,
    finalizing: null,
    updated_at: laterOf(f.now, invoice.updated_at),
  };
}

/**
 * An invoice with the custom sections that apply to it (Lago's applied_invoice_custom_sections, ids
 * derived from the invoice and the section's code: a retry writes the same ones): a draft's when it
 * is made or refreshed, a finalized one's those its finalization plan fixed. Any other, or one given
 * none (planned before sections were kept), as it is.
 */
export function withCustomSections(
  invoice: Invoice,
  sections: readonly CustomSection[] | undefined,
  at: Date,
): Invoice {
  if ((invoice.status !== "finalized" && invoice.status !== "draft") || !sections) return invoice;
  return { ...invoice, applied_custom_sections: appliedCustomSections(invoice.id, sections, at) };
}

/** The sections as applied to one invoice (ids derived from the invoice and the section's code). */
export const appliedCustomSections = (
  invoiceId: string,
  sections: readonly CustomSection[],
  at: Date,
): AppliedCustomSection[] =>
  sections.map((s) => ({ ...s, id: derivedUuid(`custom_section|${invoiceId}|${s.code}`), created_at: at }));

/** The invoice's credits from credit notes (Lago's credit of item type credit_note, applied after taxes). */
const creditNoteCredits = (invoiceId: string, notes: readonly PlannedCreditNote[], currency: string): InvoiceCredit[] =>
  notes.map((n) => ({
    id: derivedUuid(`credit|${invoiceId}|${n.credit_note_id}`),
    applied_coupon_id: "",
    amount_cents: n.amount_cents,
    currency,
    item: { id: n.credit_note_id, type: "credit_note", code: n.number, name: n.number },
  }));

export interface ImmediateInvoiceInput {
  id: string;
  organizationId: string;
  customer: { id: string; customer: CustomerViewData };
  entity: BillingEntityTerms | null;
  sandbox: boolean;
  invoiceType: Invoice["invoice_type"];
  /** a credit invoice's wallet transaction */
  walletTransactionId?: string;
  billedAt: Date;
  lines: InvoiceLine[];
  currency: string;
  fees: FeeDraft[];
  dates: { issuing_date: string; payment_due_date: string; net_payment_term: number };
  now: Date;
}

/**
 * An invoice finalized as soon as it is stored (a wallet top-up, a one-off invoice, an invoiceable
 * pay-in-advance fee): its fees priced (no coupons before finalization), no grace period
 * (`generating`, due now), numbered at finalization. Pure.
 */
export function immediateInvoice(input: ImmediateInvoiceInput): Invoice {
  const { customer } = input;
  const priced = priceInvoice({ currency: input.currency, fees: input.fees, coupons: [], finalizing: false });
  return {
    id: input.id,
    organization_id: input.organizationId,
    customer_id: customer.id,
    external_customer_id: customer.customer.external_id,
    billing_entity_code: customer.customer.billing_entity_code ?? input.entity?.code ?? null,
    sandbox: input.sandbox,
    invoice_type: input.invoiceType,
    ...(input.walletTransactionId ? { wallet_transaction_id: input.walletTransactionId } : {}),
    billed_at: input.billedAt,
    part: 0,
    lines: input.lines,
    status: "generating",
    payment_status: "pending",
    number: draftInvoiceNumber(input.entity ? documentNumberPrefix(input.entity) : "INV"),
    sequential_id: null,
    currency: input.currency,
    ...input.dates,
    expected_finalization_date: null,
    finalize_at: input.now,
    customer: customer.customer,
    fees: priced.fees,
    amounts: priced.amounts,
    applied_taxes: priced.applied_taxes,
    credits: [],
    metadata: [],
    finalizing: null,
    revision: 0,
    created_at: input.now,
    updated_at: input.now,
  };
}
