import { AppError } from "@billing/errors";
import {
  creditNoteAmounts,
  Decimal,
  inclusiveDays,
  localDateOf,
  minDate,
  periodContaining,
  terminationCreditCents,
  terminationSplit,
  unusedDays,
  usedDaysCents,
  type CreditedFee,
} from "@billing/pricing";
import { isUpgradeTermination, timingOf } from "../../domain/billing-schedule";
import type { SubscriptionCopy } from "../../domain/copies";
import { composeCreditNote, creditableFeeCents, type CreditNote } from "../../domain/credit-note";
import type { Fee } from "../../domain/invoice";
import { creditNoteCreatedEvents } from "../../events/credit-note-events";
import type { CreditNoteDeps } from "./deps";
import { applyOffset } from "./apply-offset";

const creditedFee = (fee: Fee): CreditedFee => ({
  id: fee.id,
  amount_cents: fee.amount_cents,
  precise_coupons_amount_cents: fee.precise_coupons_amount_cents,
  taxes: fee.applied_taxes.map((t) => ({ code: t.tax_code, rate: t.tax_rate })),
  taxes_rate: fee.taxes_rate,
});

/** What `base` cents of the fee amount to once its coupon share is off and its taxes are on (rounded). */
const totalOf = (fee: Fee, base: Decimal) =>
  creditNoteAmounts([{ fee: creditedFee(fee), amount_cents: base.round().toNumber(), precise_amount_cents: base }])
    .precise_total.round()
    .toNumber();

/**
 * A pay-in-advance plan terminated (or upgraded) before the end of the period it paid for: its
 * unused days are credited on the invoice of its last base fee (billing-rules §3, Lago's
 * CreateFromTermination): unused days × plan amount / period days, less the fee's coupon share,
 * plus its taxes. `on_termination_credit_note`: credit (default: a balance later invoices
 * consume, the termination or upgrade invoice first), refund (what was paid beyond the used days
 * is refunded, the rest credited), offset (that refund, the rest deducted from what the invoice
 * has due), skip (nothing). An upgrade is always credited. Once per subscription: the note records
 * it, and its id is the invoice's next note's, so a redelivered termination event or a second
 * replica finds it made.
 */
export async function creditTermination(
  deps: Pick<
    CreditNoteDeps,
    "clock" | "copies" | "creditNotes" | "invoices" | "logger" | "publish" | "publishCreditNote"
  >,
  copy: SubscriptionCopy,
): Promise<CreditNote | null> {
  const s = copy.subscription;
  if (s.status !== "terminated" || !s.terminated_at || !copy.plan.pay_in_advance) return null;
  const asked = s.on_termination_credit_note ?? "credit";
  if (asked === "skip") return null;
  const invoice = await deps.invoices.lastWithSubscriptionFee(copy.organization_id, copy.id);
  if (!invoice) return null;
  const fee = invoice.fees.find(
    (f) => f.fee_type === "subscription" && f.subscription_id === copy.id && f.amount_cents > 0,
  )!;
  const timing = timingOf(s, copy.plan);
  const zone = timing.timezone ?? "UTC";
  const feeFrom = localDateOf(fee.from ?? invoice.billed_at, zone);
  const period = periodContaining(timing, feeFrom);
  const periodDays = inclusiveDays(period.start, period.end);
  const upgrade = isUpgradeTermination(copy);
  const option = upgrade || (asked !== "refund" && asked !== "offset") ? "credit" : asked;
  const unused = unusedDays(s.terminated_at, period.end, zone) - (upgrade ? 1 : 0);
  const planAmount = Number(
    (fee.amount_details as { plan_amount_cents?: number }).plan_amount_cents ?? copy.plan.amount_cents,
  );
  for (let attempt = 0; attempt < 20; attempt++) {
    const notes = await deps.creditNotes.ofInvoice(invoice.id);
    const made = notes.find((n) => n.termination_of === copy.id);
    if (made) return made;
    const base = terminationCreditCents({
      plan_amount_cents: planAmount,
      period_days: periodDays,
      unused_days: unused,
      fee_amount_cents: fee.amount_cents,
      already_credited_cents: fee.amount_cents - creditableFeeCents(fee, notes),
    });
    const item = {
      fee_id: fee.id,
      amount_cents: Math.min(base.round().toNumber(), creditableFeeCents(fee, notes)),
      precise_amount_cents: base.toString(),
    };
    if (base.isZero() || item.amount_cents <= 0) return null;
    const total = totalOf(fee, base);
    // the used days (from the fee's first day to the termination day), valued the same way
    const usedDays = inclusiveDays(feeFrom, minDate(localDateOf(s.terminated_at, zone), period.end));
    const used = totalOf(
      fee,
      usedDaysCents({ plan_amount_cents: planAmount, period_days: periodDays, used_days: usedDays }),
    );
    const split = terminationSplit({
      option,
      total,
      used_total: used,
      fee_total_precise: new Decimal(fee.sub_total_excluding_taxes_precise_amount_cents).plus(
        fee.taxes_precise_amount_cents,
      ),
      invoice_sub_total_including_taxes_cents: invoice.amounts.sub_total_including_taxes_amount_cents,
      invoice_paid_cents: invoice.total_paid_amount_cents ?? 0,
    });
    const now = deps.clock.now();
    const customer = (await deps.copies.customer(invoice.customer_id))?.customer ?? invoice.customer;
    const sequence = notes.reduce((n, note) => Math.max(n, note.sequential_id), 0) + 1;
    let note: CreditNote;
    try {
      note = composeCreditNote(
        invoice,
        notes,
        { reason: "order_change", description: null, ...split, items: [item], termination_of: copy.id },
        {
          sequence,
          now,
          customer,
          issuing_date: localDateOf(now, customer.applicable_timezone || "UTC"),
        },
      );
    } catch (err) {
      // nothing left to credit on that invoice (earlier notes took it): no note
      if (err instanceof AppError && err.kind === "unprocessable") return null;
      throw err;
    }
    const events = creditNoteCreatedEvents(note, now);
    if (await deps.creditNotes.insert(note, events)) {
      await deps.publishCreditNote(note.id, events);
      await applyOffset(deps, note);
      deps.logger.info(
        {
          subscription_id: copy.id,
          credit_note_id: note.id,
          total_amount_cents: note.total_amount_cents,
          unused_days: unused,
        },
        "termination credited",
      );
      return note;
    }
  }
  throw new AppError(
    "unavailable",
    "credit_note_contention",
    undefined,
    `credit notes of invoice ${invoice.id} kept racing`,
  );
}
