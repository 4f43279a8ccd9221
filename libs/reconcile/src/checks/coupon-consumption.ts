import { sumCents } from "@billing/pricing";
import { Findings, isRecent, type BreachRecord, type CheckContext, type CheckOutcome } from "../breach";
import type { AppliedCouponDoc, CouponDoc, InvoiceDoc } from "../documents";
import { invoiceRecord, wasFinalized } from "./invoice-totals";

/**
 * coupon_consumption — each applied coupon is consumed at most its amount, and the catalog's
 * ledger of what invoices took (`credits`, services/catalog/src/persistence/applied-coupon-repository.ts)
 * matches the coupon credits on the invoices:
 *  - a credit counts unless its invoice was voided and the credit given back (`recredited_invoice_ids`);
 *  - one credit per invoice, none negative;
 *  - a fixed amount used once: Σ credits ≤ its amount, and amount_cents_remaining = amount − Σ credits;
 *    a recurring or forever fixed amount: each credit ≤ its amount; a percentage used once: one credit;
 *  - a recurring coupon: no more credits than its periods, and frequency_duration_remaining = periods − credits;
 *  - every credit the catalog recorded is on its (finalized or voided) invoice with the same amount, and
 *    every coupon credit on an invoice is in its applied coupon's ledger with the same amount.
 * A credit whose invoice is still being finalized (its plan stored, the coupon taken first) is
 * judged after the grace period. A percentage coupon's credit cannot be checked against its rate
 * here: the base it applied to (the eligible fees at finalization) is not kept.
 */
export function checkCouponConsumption(
  ctx: CheckContext,
  appliedCoupons: readonly AppliedCouponDoc[],
  coupons: readonly CouponDoc[],
  invoices: readonly InvoiceDoc[],
): CheckOutcome {
  const f = new Findings("coupon_consumption", ctx);
  const couponOf = new Map(coupons.map((c) => [c._id, c]));
  const invoiceOf = new Map(invoices.map((i) => [i._id, i]));
  const appliedOf = new Map(appliedCoupons.map((a) => [a._id, a]));

  for (const applied of appliedCoupons) {
    f.checked++;
    const coupon = couponOf.get(applied.coupon_id);
    const type = coupon?.coupon_type ?? (applied.percentage_rate ? "percentage" : "fixed_amount");
    const recredited = new Set(applied.recredited_invoice_ids ?? []);
    const credits = applied.credits ?? [];
    const live = credits.filter((c) => !recredited.has(c.invoice_id));
    const consumed = sumCents(
      live.map((c) => c.amount_cents),
      "coupon credits",
    );
    const record = appliedRecord(applied, type, consumed);

    const perInvoice = new Map<string, number>();
    for (const c of credits) perInvoice.set(c.invoice_id, (perInvoice.get(c.invoice_id) ?? 0) + 1);
    for (const [invoiceId, n] of perInvoice) {
      if (n > 1)
        f.breach(
          "credit_repeated",
          `applied coupon ${applied._id} recorded ${n} credits for invoice ${invoiceId}`,
          [record],
          { expected: 1, actual: n },
        );
    }
    for (const c of credits) {
      if (!Number.isSafeInteger(c.amount_cents) || c.amount_cents < 0)
        f.breach(
          "invalid_credit",
          `applied coupon ${applied._id} recorded a credit of ${c.amount_cents} for invoice ${c.invoice_id}`,
          [record],
        );
    }
    const amount = applied.amount_cents ?? 0;
    if (type === "fixed_amount" && applied.frequency === "once") {
      if (consumed > amount) {
        f.breach(
          "consumed_beyond_amount",
          `applied coupon ${applied._id} (${coupon?.code ?? applied.coupon_id}) of ${amount} gave ${consumed} to ${live.length} invoice(s)`,
          [record, ...invoicesOf(live, invoiceOf)],
          { expected: amount, actual: consumed },
        );
      }
      if (applied.amount_cents_remaining !== null && applied.amount_cents_remaining !== amount - consumed) {
        f.breach(
          "remaining_mismatch",
          `applied coupon ${applied._id} shows ${applied.amount_cents_remaining} remaining, its amount ${amount} less its credits (${consumed}) leaves ${amount - consumed}`,
          [record],
          { expected: amount - consumed, actual: applied.amount_cents_remaining },
        );
      }
    } else if (type === "fixed_amount") {
      for (const c of live) {
        if (c.amount_cents > amount)
          f.breach(
            "consumed_beyond_amount",
            `applied coupon ${applied._id} (${applied.frequency}) of ${amount} per invoice gave ${c.amount_cents} to invoice ${c.invoice_id}`,
            [record, ...invoicesOf([c], invoiceOf)],
            { expected: amount, actual: c.amount_cents },
          );
      }
    } else if (applied.frequency === "once" && live.length > 1) {
      f.breach(
        "consumed_beyond_amount",
        `percentage coupon ${applied._id} used once gave credits to ${live.length} invoices`,
        [record, ...invoicesOf(live, invoiceOf)],
        { expected: 1, actual: live.length },
      );
    }
    if (applied.frequency === "recurring" && applied.frequency_duration !== null) {
      if (live.length > applied.frequency_duration) {
        f.breach(
          "periods_exceeded",
          `recurring coupon ${applied._id} of ${applied.frequency_duration} period(s) gave ${live.length} credits`,
          [record, ...invoicesOf(live, invoiceOf)],
          { expected: applied.frequency_duration, actual: live.length },
        );
      } else if (
        applied.frequency_duration_remaining !== null &&
        applied.frequency_duration_remaining !== applied.frequency_duration - live.length
      ) {
        f.breach(
          "periods_remaining_mismatch",
          `recurring coupon ${applied._id} shows ${applied.frequency_duration_remaining} period(s) remaining after ${live.length} of ${applied.frequency_duration}`,
          [record],
          { expected: applied.frequency_duration - live.length, actual: applied.frequency_duration_remaining },
        );
      }
    }

    // the catalog's credits against the invoices
    for (const c of live) {
      const invoice = invoiceOf.get(c.invoice_id);
      if (invoice && wasFinalized(invoice)) {
        const shown = (invoice.credits ?? []).filter((k) => k.applied_coupon_id === applied._id);
        const shownAmount = sumCents(shown.map((k) => k.amount_cents));
        if (shown.length !== 1 || shownAmount !== c.amount_cents) {
          f.breach(
            "credit_not_on_invoice",
            `applied coupon ${applied._id} gave ${c.amount_cents} to invoice ${c.invoice_id} (${invoice.number}), which shows ${shown.length ? `${shownAmount} in ${shown.length} credit(s)` : "no credit"} from it`,
            [record, invoiceRecord(invoice)],
            { expected: c.amount_cents, actual: shownAmount },
          );
        }
      } else if (
        invoice &&
        (invoice.status === "generating" || invoice.status === "draft") &&
        isRecent(ctx, invoice.updated_at)
      ) {
        f.skipped++;
      } else {
        f.breach(
          "credit_for_unfinalized_invoice",
          `applied coupon ${applied._id} gave ${c.amount_cents} to invoice ${c.invoice_id}, which is ${invoice ? invoice.status : "missing"}`,
          [record, ...(invoice ? [invoiceRecord(invoice)] : [])],
          { actual: c.amount_cents },
        );
      }
    }
  }

  // the invoices' coupon credits against the catalog
  for (const invoice of invoices) {
    if (!wasFinalized(invoice)) continue;
    for (const credit of (invoice.credits ?? []).filter((k) => k.item?.type !== "credit_note")) {
      const applied = appliedOf.get(credit.applied_coupon_id);
      const recorded = applied?.credits?.find((c) => c.invoice_id === invoice._id);
      if (!applied || !recorded) {
        f.breach(
          "invoice_credit_unrecorded",
          `invoice ${invoice._id} (${invoice.number}) takes ${credit.amount_cents} from applied coupon ${credit.applied_coupon_id}, which ${applied ? "recorded no credit for it" : "does not exist"}`,
          [
            invoiceRecord(invoice),
            ...(applied
              ? [appliedRecord(applied, couponOf.get(applied.coupon_id)?.coupon_type ?? "fixed_amount", null)]
              : []),
          ],
          { expected: 0, actual: credit.amount_cents },
        );
      }
    }
  }
  return f.outcome();
}

function invoicesOf(
  credits: ReadonlyArray<{ invoice_id: string }>,
  invoiceOf: ReadonlyMap<string, InvoiceDoc>,
): BreachRecord[] {
  return credits.flatMap((c) => (invoiceOf.get(c.invoice_id) ? [invoiceRecord(invoiceOf.get(c.invoice_id)!)] : []));
}

function appliedRecord(a: AppliedCouponDoc, type: string, consumed: number | null): BreachRecord {
  return {
    type: "applied_coupon",
    id: a._id,
    fields: {
      coupon_id: a.coupon_id,
      customer_id: a.customer_id,
      coupon_type: type,
      frequency: a.frequency,
      status: a.status,
      amount_cents: a.amount_cents,
      percentage_rate: a.percentage_rate,
      amount_cents_remaining: a.amount_cents_remaining,
      frequency_duration: a.frequency_duration,
      frequency_duration_remaining: a.frequency_duration_remaining,
      credits: (a.credits ?? []).map((c) => `${c.invoice_id}:${c.amount_cents}`).join(",") || null,
      consumed_cents: consumed,
    },
  };
}
