import {
  computeFeeTaxes,
  computeInvoiceTotals,
  paidFeesTotals,
  sumCents,
  toDecimal,
  type InvoiceFeeInput,
} from "@billing/pricing";
import { Findings, isRecent, iso, type BreachRecord, type CheckContext, type CheckOutcome } from "../breach";
import type { CreditNoteDoc, InvoiceAmountsDoc, InvoiceDoc, InvoiceFeeDoc, WalletTransactionDoc } from "../documents";

/** Invoices whose amounts were fixed by a finalization (a voided invoice keeps the amounts it was finalized with). */
export const wasFinalized = (invoice: Pick<InvoiceDoc, "status">) =>
  invoice.status === "finalized" || invoice.status === "voided";
/** Invoices a finalization may still be working on (step 1 stored its plan, the credits are taken before step 4 writes it). */
const isOpen = (invoice: Pick<InvoiceDoc, "status">) => invoice.status === "generating" || invoice.status === "draft";

/**
 * invoice_totals — every finalized (or voided) invoice's amounts are what its own document makes
 * them (billing-rules §3, libs/pricing computeInvoiceTotals), and what it records taking matches
 * what the wallets and credit notes recorded giving:
 *  - fees_amount_cents = Σ fees' amount_cents; each fee's total = amount + taxes, and its taxes are
 *    the pricing library's on its taxable base (amount − its share of coupons and progressive credit);
 *  - coupons_amount_cents = Σ its coupon credits; credit_notes_amount_cents = Σ its credit-note credits;
 *  - sub_total_excluding_taxes = fees − progressive credit − coupons; sub_total_including_taxes =
 *    that + taxes; total = sub_total_including_taxes − credit notes − prepaid credits; none negative;
 *  - taxes_amount_cents = the pricing library's invoice taxes over the fees as stored (rounded once
 *    over all taxes), or for an advance_charges invoice the sum of its fees' own taxes (paidFeesTotals);
 *  - prepaid_credit_amount_cents = Σ the settled consumptions the wallet service recorded for it;
 *  - each credit-note credit equals what that note recorded giving to it, and each note's
 *    consumption appears on the invoice it names; a note's balance = its credit − Σ consumptions.
 * Not derivable from the stored records, so not checked: whether the coupons, credit notes and
 * wallets chosen were the right ones and their spread over the fees (the finalization's plan is not
 * kept once it is finalized), the progressive credit's amount (it depends on other invoices' fees
 * at the time), and the fees' own amounts (the usage service's audit re-derives those).
 * Consumptions of an invoice still open (a finalization under way) are judged only after the grace period.
 */
export function checkInvoiceTotals(
  ctx: CheckContext,
  invoices: readonly InvoiceDoc[],
  creditNotes: readonly CreditNoteDoc[],
  transactions: readonly WalletTransactionDoc[],
): CheckOutcome {
  const f = new Findings("invoice_totals", ctx);
  const consumptionsOf = new Map<string, WalletTransactionDoc[]>();
  for (const tx of transactions) {
    if (tx.transaction_status !== "invoiced" || tx.transaction_type !== "outbound" || !tx.invoice_id) continue;
    consumptionsOf.set(tx.invoice_id, [...(consumptionsOf.get(tx.invoice_id) ?? []), tx]);
  }
  const notes = new Map(creditNotes.map((n) => [n._id, n]));
  const invoicesById = new Map(invoices.map((i) => [i._id, i]));

  for (const invoice of invoices) {
    if (!wasFinalized(invoice)) continue;
    f.checked++;
    checkAmounts(f, invoice);
    checkPrepaid(f, invoice, consumptionsOf.get(invoice._id) ?? []);
    for (const credit of (invoice.credits ?? []).filter((c) => c.item?.type === "credit_note")) {
      const note = notes.get(credit.item.id);
      const given = note?.consumptions?.find((c) => c.invoice_id === invoice._id);
      if (!note || !given || given.amount_cents !== credit.amount_cents) {
        f.breach(
          "credit_note_credit_unrecorded",
          `invoice ${invoice._id} takes ${credit.amount_cents} from credit note ${credit.item.id}, which ${!note ? "does not exist" : given ? `recorded giving it ${given.amount_cents}` : "recorded giving it nothing"}`,
          [invoiceRecord(invoice), ...(note ? [noteRecord(note)] : [])],
          { expected: given?.amount_cents ?? 0, actual: credit.amount_cents },
        );
      }
    }
  }

  // what consumers recorded giving to an invoice that does not show it
  for (const [invoiceId, txs] of consumptionsOf) {
    const invoice = invoicesById.get(invoiceId);
    const settled = txs.filter((t) => t.status === "settled");
    if (settled.length === 0 || (invoice && wasFinalized(invoice))) continue;
    if (invoice && isOpen(invoice) && isRecent(ctx, invoice.updated_at)) {
      f.skipped++;
      continue;
    }
    f.breach(
      "prepaid_taken_by_unfinalized_invoice",
      `wallets gave ${sumCents(settled.map((t) => t.amount_cents))} in prepaid credits to invoice ${invoiceId}, which is ${invoice ? invoice.status : "missing"}`,
      [...(invoice ? [invoiceRecord(invoice)] : []), ...settled.map(consumptionRecord)],
    );
  }
  for (const note of creditNotes) {
    f.checked++;
    const consumed = sumCents(
      (note.consumptions ?? []).map((c) => c.amount_cents),
      "credit note consumptions",
    );
    if (note.credit_status !== "voided" && note.balance_amount_cents !== note.credit_amount_cents - consumed) {
      f.breach(
        "credit_note_balance_mismatch",
        `credit note ${note._id} holds balance ${note.balance_amount_cents}, but its credit ${note.credit_amount_cents} less what invoices took (${consumed}) is ${note.credit_amount_cents - consumed}`,
        [noteRecord(note)],
        { expected: note.credit_amount_cents - consumed, actual: note.balance_amount_cents },
      );
    }
    for (const c of note.consumptions ?? []) {
      const invoice = invoicesById.get(c.invoice_id);
      if (invoice && wasFinalized(invoice)) {
        const shown = (invoice.credits ?? []).find((k) => k.item?.type === "credit_note" && k.item.id === note._id);
        if (!shown) {
          f.breach(
            "credit_note_consumption_not_on_invoice",
            `credit note ${note._id} recorded giving ${c.amount_cents} to invoice ${c.invoice_id}, which shows no credit from it`,
            [noteRecord(note), invoiceRecord(invoice)],
            { expected: c.amount_cents, actual: 0 },
          );
        }
        continue;
      }
      if (invoice && isOpen(invoice) && isRecent(ctx, invoice.updated_at)) continue;
      f.breach(
        "credit_note_consumed_by_unfinalized_invoice",
        `credit note ${note._id} recorded giving ${c.amount_cents} to invoice ${c.invoice_id}, which is ${invoice ? invoice.status : "missing"}`,
        [noteRecord(note), ...(invoice ? [invoiceRecord(invoice)] : [])],
      );
    }
  }
  return f.outcome();
}

const AMOUNT_FIELDS = [
  "fees_amount_cents",
  "progressive_billing_credit_amount_cents",
  "coupons_amount_cents",
  "sub_total_excluding_taxes_amount_cents",
  "taxes_amount_cents",
  "sub_total_including_taxes_amount_cents",
  "credit_notes_amount_cents",
  "prepaid_credit_amount_cents",
  "total_amount_cents",
] as const satisfies ReadonlyArray<keyof InvoiceAmountsDoc>;

/** The stored amounts against the ones the document's own parts make. */
function checkAmounts(f: Findings, invoice: InvoiceDoc): void {
  const a = invoice.amounts;
  const fees = invoice.fees ?? [];
  const credits = invoice.credits ?? [];
  const derived: Partial<Record<(typeof AMOUNT_FIELDS)[number], number>> = {};
  if (invoice.invoice_type === "advance_charges") {
    // fees taxed and paid before the invoice: its totals are theirs (libs/pricing paidFeesTotals)
    const t = paidFeesTotals(
      fees.map((fee) => ({
        amount_cents: fee.amount_cents,
        taxes_amount_cents: fee.taxes_amount_cents ?? 0,
        applied_taxes: fee.applied_taxes ?? [],
      })),
    );
    for (const k of AMOUNT_FIELDS) derived[k] = t[k];
  } else {
    derived.fees_amount_cents = sumCents(
      fees.map((fee) => fee.amount_cents),
      "fees amount",
    );
    derived.coupons_amount_cents = sumCents(
      credits.filter((c) => c.item?.type !== "credit_note").map((c) => c.amount_cents),
      "coupon credits",
    );
    derived.credit_notes_amount_cents = sumCents(
      credits.filter((c) => c.item?.type === "credit_note").map((c) => c.amount_cents),
      "credit note credits",
    );
    derived.sub_total_excluding_taxes_amount_cents = sumCents([
      a.fees_amount_cents,
      -a.progressive_billing_credit_amount_cents,
      -a.coupons_amount_cents,
    ]);
    derived.taxes_amount_cents = invoiceTaxesCents(fees);
    derived.sub_total_including_taxes_amount_cents = sumCents([
      a.sub_total_excluding_taxes_amount_cents,
      a.taxes_amount_cents,
    ]);
    derived.total_amount_cents = sumCents([
      a.sub_total_including_taxes_amount_cents,
      -a.credit_notes_amount_cents,
      -a.prepaid_credit_amount_cents,
    ]);
    if (!invoice.progressive_credit) derived.progressive_billing_credit_amount_cents = 0;
  }
  for (const k of AMOUNT_FIELDS) {
    const expected = derived[k];
    if (expected !== undefined && expected !== a[k]) {
      f.breach(
        "amount_mismatch",
        `invoice ${invoice._id} (${invoice.number}) holds ${k} ${a[k]}, its ${explain(k)} make ${expected}`,
        [invoiceRecord(invoice)],
        { expected, actual: a[k] },
      );
    }
  }
  for (const k of AMOUNT_FIELDS) {
    if (a[k] < 0)
      f.breach(
        "negative_amount",
        `invoice ${invoice._id} (${invoice.number}) holds a negative ${k}`,
        [invoiceRecord(invoice)],
        { actual: a[k] },
      );
  }
  for (const fee of fees) {
    const taxes = fee.taxes_amount_cents ?? 0;
    if (fee.total_amount_cents !== undefined && fee.total_amount_cents !== fee.amount_cents + taxes) {
      f.breach(
        "fee_total_mismatch",
        `fee ${fee.id} of invoice ${invoice._id} holds total ${fee.total_amount_cents}, its amount ${fee.amount_cents} + taxes ${taxes} make ${fee.amount_cents + taxes}`,
        [invoiceRecord(invoice), feeRecord(fee, invoice)],
        { expected: fee.amount_cents + taxes, actual: fee.total_amount_cents },
      );
    }
    const expectedTaxes = computeFeeTaxes(taxableFee(fee)).taxes_amount_cents;
    if (expectedTaxes !== taxes) {
      f.breach(
        "fee_taxes_mismatch",
        `fee ${fee.id} of invoice ${invoice._id} holds taxes ${taxes}, its taxable base and rates make ${expectedTaxes}`,
        [invoiceRecord(invoice), feeRecord(fee, invoice)],
        { expected: expectedTaxes, actual: taxes },
      );
    }
  }
}

/** What each derived amount is made of, for the message. */
function explain(field: (typeof AMOUNT_FIELDS)[number]): string {
  switch (field) {
    case "fees_amount_cents":
      return "fees";
    case "coupons_amount_cents":
      return "coupon credits";
    case "credit_notes_amount_cents":
      return "credit note credits";
    case "sub_total_excluding_taxes_amount_cents":
      return "fees − progressive credit − coupons";
    case "taxes_amount_cents":
      return "fees' taxable bases and rates";
    case "sub_total_including_taxes_amount_cents":
      return "sub-total + taxes";
    case "total_amount_cents":
      return "sub-total incl. taxes − credit notes − prepaid credits";
    case "progressive_billing_credit_amount_cents":
      return "progressive credit (none recorded)";
    case "prepaid_credit_amount_cents":
      return "wallet consumptions";
  }
}

/**
 * A fee as the pricing library taxes it: its taxable base (amount − its precise share of coupons
 * and progressive credit, which is what `applyFeeTaxes` and `invoiceTaxes` tax) with its rates.
 * The base is a decimal with at most 5 decimals (the precise share's scale), exact as a number.
 */
function taxableFee(fee: InvoiceFeeDoc): InvoiceFeeInput {
  const base = toDecimal(fee.amount_cents).minus(toDecimal(fee.precise_coupons_amount_cents ?? "0"));
  return {
    fee_type: fee.fee_type,
    amount_cents: Number(base.toString()),
    taxes: (fee.taxes ?? []).map((t) => ({ code: t.code, rate: String(t.rate) })),
  };
}

/** The invoice's taxes as the pricing library rounds them (once, over every tax's unrounded amount), on the fees as stored. */
export function invoiceTaxesCents(fees: readonly InvoiceFeeDoc[]): number {
  return computeInvoiceTotals({ currency: "USD", fees: fees.map(taxableFee), finalizing: false }).taxes_amount_cents;
}

/** prepaid_credit_amount_cents against what the wallets recorded giving (settled consumptions naming the invoice). */
function checkPrepaid(f: Findings, invoice: InvoiceDoc, txs: readonly WalletTransactionDoc[]): void {
  // a consumption still pending is a ledger move under way (wallet_ledger judges the ledger itself)
  if (txs.some((t) => t.status === "pending")) return;
  const settled = txs.filter((t) => t.status === "settled");
  const given = sumCents(
    settled.map((t) => t.amount_cents),
    "prepaid credits given",
  );
  if (given !== invoice.amounts.prepaid_credit_amount_cents) {
    f.breach(
      "prepaid_credits_mismatch",
      `invoice ${invoice._id} (${invoice.number}) holds prepaid_credit_amount_cents ${invoice.amounts.prepaid_credit_amount_cents}, its wallets recorded giving ${given}`,
      [invoiceRecord(invoice), ...settled.map(consumptionRecord)],
      { expected: given, actual: invoice.amounts.prepaid_credit_amount_cents },
    );
  }
}

export function invoiceRecord(invoice: InvoiceDoc): BreachRecord {
  const a = invoice.amounts;
  return {
    type: "invoice",
    id: invoice._id,
    fields: {
      number: invoice.number,
      invoice_type: invoice.invoice_type,
      status: invoice.status,
      payment_status: invoice.payment_status,
      customer_id: invoice.customer_id,
      fees_amount_cents: a?.fees_amount_cents ?? null,
      coupons_amount_cents: a?.coupons_amount_cents ?? null,
      taxes_amount_cents: a?.taxes_amount_cents ?? null,
      credit_notes_amount_cents: a?.credit_notes_amount_cents ?? null,
      prepaid_credit_amount_cents: a?.prepaid_credit_amount_cents ?? null,
      total_amount_cents: a?.total_amount_cents ?? null,
      total_paid_amount_cents: invoice.total_paid_amount_cents ?? 0,
      updated_at: iso(invoice.updated_at),
    },
  };
}

function feeRecord(fee: InvoiceFeeDoc, invoice: InvoiceDoc): BreachRecord {
  return {
    type: "fee",
    id: fee.id,
    fields: {
      invoice_id: invoice._id,
      fee_type: fee.fee_type,
      amount_cents: fee.amount_cents,
      precise_coupons_amount_cents: fee.precise_coupons_amount_cents ?? null,
      taxes_amount_cents: fee.taxes_amount_cents ?? null,
      total_amount_cents: fee.total_amount_cents ?? null,
      tax_rates: (fee.taxes ?? []).map((t) => `${t.code}:${String(t.rate)}`).join(",") || null,
    },
  };
}

export function noteRecord(note: CreditNoteDoc): BreachRecord {
  return {
    type: "credit_note",
    id: note._id,
    fields: {
      number: note.number,
      invoice_id: note.invoice_id,
      credit_status: note.credit_status,
      refund_status: note.refund_status,
      total_amount_cents: note.total_amount_cents,
      credit_amount_cents: note.credit_amount_cents,
      refund_amount_cents: note.refund_amount_cents,
      balance_amount_cents: note.balance_amount_cents,
    },
  };
}

function consumptionRecord(tx: WalletTransactionDoc): BreachRecord {
  return {
    type: "wallet_transaction",
    id: tx._id,
    fields: {
      wallet_id: tx.wallet_id,
      transaction_status: tx.transaction_status,
      status: tx.status,
      amount_cents: tx.amount_cents,
      invoice_id: tx.invoice_id,
    },
  };
}
