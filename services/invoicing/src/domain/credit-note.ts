import { derivedUuid } from "@billing/codes";
import type { CustomerViewData } from "@billing/contracts";
import { AppError } from "@billing/errors";
import {
  availableToCreditCents,
  creditNoteAmounts,
  estimatedCreditAmount,
  invoiceFeeTotalCents,
  splitCreditNote,
  sumCents,
  type CreditNoteAmounts,
  type CreditNoteItemInput,
} from "@billing/pricing";
import type { Fee, Invoice } from "./invoice";

export const CREDIT_NOTE_REASONS = [
  "duplicated_charge",
  "product_unsatisfactory",
  "order_change",
  "order_cancellation",
  "fraudulent_charge",
  "other",
] as const;
export type CreditNoteReason = (typeof CREDIT_NOTE_REASONS)[number];
export type CreditStatus = "available" | "consumed" | "voided";
export type RefundStatus = "pending" | "succeeded" | "failed";

export interface CreditNoteItem {
  id: string;
  fee_id: string;
  amount_cents: number;
}

export interface CreditNoteAppliedTax {
  id: string;
  tax_code: string;
  tax_name: string;
  tax_rate: string;
  tax_id: string | null;
  tax_description: string | null;
  base_amount_cents: number;
  amount_cents: number;
}

/** What an invoice took of a credit note's balance (written with the balance change: each invoice once). */
export interface CreditNoteConsumption {
  invoice_id: string;
  amount_cents: number;
}

/**
 * A credit note as this service stores it: one document (Lago's CreditNoteObject's fields, its
 * items by fee id), its events in its outbox. Its credit part is a balance later invoices of the
 * customer consume; `consumptions` records each invoice's share once.
 */
export interface CreditNote {
  id: string;
  organization_id: string;
  customer_id: string;
  external_customer_id: string;
  customer: CustomerViewData;
  invoice_id: string;
  invoice_number: string;
  billing_entity_code: string | null;
  /** per invoice: 1, 2, … */
  sequential_id: number;
  number: string;
  issuing_date: string;
  reason: CreditNoteReason;
  description: string | null;
  currency: string;
  credit_status: CreditStatus | null;
  refund_status: RefundStatus | null;
  total_amount_cents: number;
  credit_amount_cents: number;
  refund_amount_cents: number;
  offset_amount_cents: number;
  balance_amount_cents: number;
  taxes_amount_cents: number;
  precise_taxes_amount_cents: string;
  taxes_rate: number;
  sub_total_excluding_taxes_amount_cents: number;
  coupons_adjustment_amount_cents: number;
  precise_coupons_adjustment_amount_cents: string;
  items: CreditNoteItem[];
  applied_taxes: CreditNoteAppliedTax[];
  consumptions: CreditNoteConsumption[];
  /** the subscription whose termination (or upgrade) made it, for an automatic note */
  termination_of?: string | null;
  /** an automatic note for a period invoice's excess progressive credit (use-cases/progressive/credit-progressive-excess.ts): that invoice */
  progressive_excess_of?: string | null;
  /** the part of its invoice's void it is, for a note a void made */
  void_part?: "requested" | "remaining" | null;
  voided_at: Date | null;
  refunded_at: Date | null;
  /** incremented by every change: a balance is changed only from the revision it was read at */
  revision: number;
  created_at: Date;
  updated_at: Date;
}

/** A credit note's id: the invoice's `sequence`-th (two creators racing for one number store one note; the other retries). */
export const creditNoteIdOf = (invoiceId: string, sequence: number) =>
  derivedUuid(`credit_note|${invoiceId}|${sequence}`);

/** Lago's numbering: the invoice's number, `-CN`, the note's rank on the invoice on three digits. */
export const creditNoteNumber = (invoiceNumber: string, sequence: number) =>
  `${invoiceNumber}-CN${String(sequence).padStart(3, "0")}`;

export interface CreditNoteRequest {
  reason?: string | null;
  description?: string | null;
  credit_amount_cents: number;
  refund_amount_cents: number;
  offset_amount_cents: number;
  items: ReadonlyArray<{ fee_id: string; amount_cents: number; precise_amount_cents?: string }>;
  /** an automatic note for a subscription's termination or upgrade (its unused days): the subscription */
  termination_of?: string | null;
  /** a note made by a void: what the client asked, or the rest (voided at once) */
  void_part?: "requested" | "remaining" | null;
  /** an automatic note on a progressive invoice for what the period's invoice could not take of its credit: that invoice */
  progressive_excess_of?: string | null;
}

/** What is left of a fee to credit: its amount less every item already issued on it (Lago counts voided notes too). */
export const creditableFeeCents = (fee: Fee, notes: readonly CreditNote[]) =>
  fee.amount_cents -
  sumCents(notes.flatMap((n) => n.items.filter((i) => i.fee_id === fee.id).map((i) => i.amount_cents)));

/**
 * Whether the invoice takes credit notes. A credit (wallet top-up) invoice does, as Lago's, only
 * while its wallet is active (`creditWallet`), and then only as a refund of the credits left in
 * the wallet once it is paid, or as an offset of its whole amount while it is unpaid.
 */
function creditableInvoice(
  invoice: Invoice,
  request?: Pick<CreditNoteRequest, "credit_amount_cents" | "refund_amount_cents">,
  creditWallet?: CreditWalletState | null,
): void {
  if (invoice.status !== "finalized" && invoice.status !== "voided")
    throw new AppError("not_allowed", "invalid_type_or_status");
  if (invoice.invoice_type !== "credit") return;
  if (!creditWallet?.active) throw new AppError("not_allowed", "invalid_type_or_status");
  if (invoice.payment_status === "succeeded") return;
  if (!request || request.credit_amount_cents > 0 || request.refund_amount_cents > 0)
    throw new AppError("not_allowed", "invalid_type_or_status");
}

/** A credit invoice's wallet as a credit note is checked against: whether it is active and what is left in it. */
export interface CreditWalletState {
  active: boolean;
  balance_cents: number;
}

/** Lago's rules of a credit note on a credit invoice (after the type and status check): refund only, within the wallet's credits; an offset of the whole unpaid amount. */
function creditInvoiceViolations(
  invoice: Invoice,
  notes: readonly CreditNote[],
  request: CreditNoteRequest,
  creditWallet: CreditWalletState,
): void {
  if (request.credit_amount_cents > 0) throw invalid("credit_amount_cents", "cannot_credit_invoice");
  if (request.refund_amount_cents > creditWallet.balance_cents)
    throw invalid("refund_amount_cents", "higher_than_remaining_invoice_amount");
  if (request.offset_amount_cents > 0) {
    if ((invoice.total_paid_amount_cents ?? 0) > 0)
      throw invalid("offset_amount_cents", "cannot_apply_to_paid_invoice");
    if (request.offset_amount_cents !== invoice.amounts.total_amount_cents - sumOf(notes, "offset_amount_cents"))
      throw invalid("offset_amount_cents", "not_equal_to_total_amount");
  }
}

/** Items read against the invoice: each fee must be the invoice's, each amount whole and within what is left of it. */
function itemInputs(
  invoice: Invoice,
  notes: readonly CreditNote[],
  items: CreditNoteRequest["items"],
): CreditNoteItemInput[] {
  if (!Array.isArray(items) || items.length === 0) throw AppError.validation({ items: ["must_be_an_array"] });
  const inputs: CreditNoteItemInput[] = [];
  const asked = new Map<string, number>();
  for (const item of items) {
    const fee = invoice.fees.find((f) => f.id === item.fee_id);
    if (!fee) throw AppError.notFound("fee");
    if (!Number.isSafeInteger(item.amount_cents) || item.amount_cents < 0)
      throw AppError.validation({ amount_cents: ["invalid_value"] });
    const total = (asked.get(fee.id) ?? 0) + item.amount_cents;
    if (total > creditableFeeCents(fee, notes))
      throw AppError.validation({ amount_cents: ["higher_than_remaining_fee_amount"] });
    asked.set(fee.id, total);
    inputs.push({
      fee: {
        id: fee.id,
        amount_cents: fee.amount_cents,
        precise_coupons_amount_cents: fee.precise_coupons_amount_cents,
        taxes: fee.applied_taxes.map((t) => ({ code: t.tax_code, rate: t.tax_rate })),
        taxes_rate: fee.taxes_rate,
      },
      amount_cents: item.amount_cents,
      precise_amount_cents: item.precise_amount_cents,
    });
  }
  return inputs;
}

/** The items' amounts; the last note on an invoice (nothing left after it) takes back the earlier notes' tax rounding. */
function amountsOf(
  invoice: Invoice,
  notes: readonly CreditNote[],
  inputs: readonly CreditNoteItemInput[],
): CreditNoteAmounts {
  const left = invoice.fees.reduce((s, f) => s + creditableFeeCents(f, notes), 0);
  const asked = inputs.reduce((s, i) => s + i.amount_cents, 0);
  const rounding = notes.reduce((s, n) => s + n.taxes_amount_cents - Number(n.precise_taxes_amount_cents), 0);
  return creditNoteAmounts(inputs, { all_remaining: asked === left, previous_taxes_rounding: rounding });
}

const sumOf = (
  notes: readonly CreditNote[],
  key: "credit_amount_cents" | "refund_amount_cents" | "offset_amount_cents",
) => sumCents(notes.map((n) => n[key]));

/** What is still creditable on the invoice as a credit (Lago's available_to_credit, less nothing for credit invoices). */
function creditableCents(invoice: Invoice, notes: readonly CreditNote[]) {
  return availableToCreditCents({
    fees: invoice.fees.map((f) => ({
      creditable_amount_cents: creditableFeeCents(f, notes),
      taxes_rate: f.taxes_rate,
    })),
    fees_amount_cents: invoice.amounts.fees_amount_cents,
    coupons_amount_cents: invoice.amounts.coupons_amount_cents,
    progressive_billing_credit_amount_cents: invoice.amounts.progressive_billing_credit_amount_cents,
  });
}

/** What can still be refunded: what was paid, less earlier refunds, within what is creditable. */
function refundableCents(invoice: Invoice, notes: readonly CreditNote[]) {
  const paid = invoice.total_paid_amount_cents ?? 0;
  if (invoice.payment_status !== "succeeded" && paid === invoice.amounts.total_amount_cents) return 0;
  return Math.max(0, Math.min(paid - sumOf(notes, "refund_amount_cents"), creditableCents(invoice, notes)));
}

/** Lago's error_details for one field. */
const invalid = (field: string, code: string) => AppError.validation({ [field]: [code] });

/**
 * A new credit note on `invoice` (finalized or voided), given the invoice's earlier notes: its
 * amounts from the pricing library, checked against what is left to credit, refund and offset
 * (Lago's codes), ±1 cent so sub-total + taxes = total. Pure: throws AppError on bad input.
 */
export function composeCreditNote(
  invoice: Invoice,
  notes: readonly CreditNote[],
  request: CreditNoteRequest,
  ctx: {
    sequence: number;
    now: Date;
    issuing_date: string;
    customer: CustomerViewData;
    creditWallet?: CreditWalletState | null;
  },
): CreditNote {
  creditableInvoice(invoice, request, ctx.creditWallet);
  const reason = (request.reason ?? "other") as CreditNoteReason;
  if (!CREDIT_NOTE_REASONS.includes(reason)) throw invalid("reason", "value_is_invalid");
  for (const key of ["credit_amount_cents", "refund_amount_cents", "offset_amount_cents"] as const) {
    if (!Number.isSafeInteger(request[key]) || request[key] < 0) throw invalid(key, "invalid_value");
  }
  if (invoice.invoice_type === "credit") creditInvoiceViolations(invoice, notes, request, ctx.creditWallet!);
  const inputs = itemInputs(invoice, notes, request.items);
  const amounts = amountsOf(invoice, notes, inputs);
  const asked = request.credit_amount_cents + request.refund_amount_cents + request.offset_amount_cents;
  const feeTotal = invoiceFeeTotalCents(invoice.fees);
  const paid = invoice.total_paid_amount_cents ?? 0;

  if (Math.abs(asked - amounts.precise_total.round().toNumber()) > 1)
    throw invalid("base", "does_not_match_item_amounts");
  if (request.refund_amount_cents > 0) {
    if (paid <= 0) throw invalid("refund_amount_cents", "cannot_refund_unpaid_invoice");
    if (request.refund_amount_cents > paid - sumOf(notes, "refund_amount_cents"))
      throw invalid("refund_amount_cents", "higher_than_remaining_invoice_amount");
  }
  const creditable = feeTotal - sumOf(notes, "credit_amount_cents") - sumOf(notes, "offset_amount_cents");
  if (request.credit_amount_cents - creditable > 1)
    throw invalid("credit_amount_cents", "higher_than_remaining_invoice_amount");
  if (request.offset_amount_cents > 0) {
    const due =
      invoice.status === "voided" ? 0 : invoice.amounts.total_amount_cents - paid - sumOf(notes, "offset_amount_cents");
    if (request.offset_amount_cents > Math.min(due, creditable))
      throw invalid("offset_amount_cents", "higher_than_remaining_invoice_amount");
  }
  const remaining =
    feeTotal -
    sumOf(notes, "credit_amount_cents") -
    sumOf(notes, "refund_amount_cents") -
    sumOf(notes, "offset_amount_cents");
  if (asked - remaining > 1) throw invalid("base", "higher_than_remaining_invoice_amount");
  if (asked <= 0) throw invalid("base", "total_amount_must_be_positive");

  const split = splitCreditNote(amounts, request);
  const id = creditNoteIdOf(invoice.id, ctx.sequence);
  const taxOf = new Map(invoice.applied_taxes.map((t) => [t.tax_code, t]));
  return {
    id,
    organization_id: invoice.organization_id,
    customer_id: invoice.customer_id,
    external_customer_id: invoice.external_customer_id,
    customer: ctx.customer,
    invoice_id: invoice.id,
    invoice_number: invoice.number,
    billing_entity_code: invoice.billing_entity_code,
    sequential_id: ctx.sequence,
    number: creditNoteNumber(invoice.number, ctx.sequence),
    issuing_date: ctx.issuing_date,
    reason,
    description: request.description ?? null,
    currency: invoice.currency,
    // Lago: a note's credit is `available` from the start (even a refund-only one, its balance 0)
    credit_status: "available",
    refund_status: split.refund_amount_cents > 0 ? "pending" : null,
    ...split,
    taxes_amount_cents: amounts.taxes_amount_cents,
    precise_taxes_amount_cents: amounts.precise_taxes_amount_cents.toString(),
    taxes_rate: amounts.taxes_rate,
    sub_total_excluding_taxes_amount_cents: amounts.sub_total_excluding_taxes_amount_cents,
    coupons_adjustment_amount_cents: amounts.coupons_adjustment_amount_cents,
    precise_coupons_adjustment_amount_cents: amounts.precise_coupons_adjustment_amount_cents.toString(),
    items: inputs.map((input, i) => ({
      id: derivedUuid(`${id}|item|${i}`),
      fee_id: input.fee.id,
      amount_cents: input.amount_cents,
    })),
    applied_taxes: amounts.applied_taxes.map((t) => {
      const tax = taxOf.get(t.tax_code);
      return {
        id: derivedUuid(`${id}|tax|${t.tax_code}`),
        tax_code: t.tax_code,
        tax_name: tax?.tax_name ?? t.tax_code,
        tax_rate: t.tax_rate,
        tax_id: tax?.tax_id ?? null,
        tax_description: tax?.tax_description ?? null,
        base_amount_cents: t.base_amount_cents,
        amount_cents: t.amount_cents,
      };
    }),
    consumptions: [],
    termination_of: request.termination_of ?? null,
    ...(request.progressive_excess_of ? { progressive_excess_of: request.progressive_excess_of } : {}),
    void_part: request.void_part ?? null,
    voided_at: null,
    refunded_at: null,
    revision: 0,
    created_at: ctx.now,
    updated_at: ctx.now,
  };
}

export interface CreditNoteEstimate {
  svc_invoice_id: string;
  invoice_number: string;
  currency: string;
  taxes_amount_cents: number;
  precise_taxes_amount_cents: number;
  taxes_rate: number;
  sub_total_excluding_taxes_amount_cents: number;
  max_creditable_amount_cents: number;
  max_refundable_amount_cents: number;
  max_offsettable_amount_cents: number;
  coupons_adjustment_amount_cents: number;
  precise_coupons_adjustment_amount_cents: number;
  items: Array<{ svc_fee_id: string; amount_cents: number }>;
  applied_taxes: Array<{
    svc_tax_id: string | null;
    tax_name: string;
    tax_code: string;
    tax_rate: number;
    tax_description: string | null;
    base_amount_cents: number;
    amount_cents: number;
    amount_currency: string;
  }>;
}

/** Lago's estimated_credit_note: what these items would credit at most, and of it what could be refunded or offset. Pure. */
export function estimateCreditNote(
  invoice: Invoice,
  notes: readonly CreditNote[],
  items: CreditNoteRequest["items"],
): CreditNoteEstimate {
  creditableInvoice(invoice);
  const inputs = itemInputs(invoice, notes, items);
  const amounts = amountsOf(invoice, notes, inputs);
  const estimated = estimatedCreditAmount(amounts);
  const paid = invoice.total_paid_amount_cents ?? 0;
  const due =
    invoice.status === "voided" ? 0 : invoice.amounts.total_amount_cents - paid - sumOf(notes, "offset_amount_cents");
  const taxOf = new Map(invoice.applied_taxes.map((t) => [t.tax_code, t]));
  return {
    svc_invoice_id: invoice.id,
    invoice_number: invoice.number,
    currency: invoice.currency,
    taxes_amount_cents: estimated.taxes_amount_cents,
    precise_taxes_amount_cents: amounts.precise_taxes_amount_cents.toNumber(),
    taxes_rate: amounts.taxes_rate,
    sub_total_excluding_taxes_amount_cents: amounts.sub_total_excluding_taxes_amount_cents,
    max_creditable_amount_cents: estimated.total_amount_cents,
    max_refundable_amount_cents: Math.min(estimated.total_amount_cents, refundableCents(invoice, notes)),
    max_offsettable_amount_cents: Math.max(
      0,
      Math.min(estimated.total_amount_cents, due, creditableCents(invoice, notes)),
    ),
    coupons_adjustment_amount_cents: amounts.coupons_adjustment_amount_cents,
    precise_coupons_adjustment_amount_cents: amounts.precise_coupons_adjustment_amount_cents.toNumber(),
    items: inputs.map((i) => ({ svc_fee_id: i.fee.id, amount_cents: i.amount_cents })),
    applied_taxes: amounts.applied_taxes.map((t) => {
      const tax = taxOf.get(t.tax_code);
      return {
        svc_tax_id: tax?.tax_id ?? null,
        tax_name: tax?.tax_name ?? t.tax_code,
        tax_code: t.tax_code,
        tax_rate: Number(t.tax_rate),
        tax_description: tax?.tax_description ?? null,
        base_amount_cents: t.base_amount_cents,
        amount_cents: t.amount_cents,
        amount_currency: invoice.currency,
      };
    }),
  };
}

/** A credit note's balance after an invoice took `amount` of it. Pure. */
export function consumedBy(note: CreditNote, invoiceId: string, amount: number, now: Date): Partial<CreditNote> {
  const balance = note.balance_amount_cents - amount;
  return {
    balance_amount_cents: balance,
    credit_status: balance === 0 ? "consumed" : note.credit_status,
    consumptions: [...note.consumptions, { invoice_id: invoiceId, amount_cents: amount }],
    updated_at: new Date(Math.max(now.getTime(), note.updated_at.getTime() + 1)),
  };
}
