import { Findings, isRecent, iso, type BreachRecord, type CheckContext, type CheckOutcome } from "../breach";
import type { CreditNoteDoc, PaymentDoc, RefundDoc } from "../documents";
import { noteRecord } from "./invoice-totals";
import { paymentRecord } from "./invoice-payments";

/** The payment a credit note's refund goes back through: the invoice's latest succeeded one (services/payment PaymentRepository.latestSucceeded). */
export function latestSucceeded(payments: readonly PaymentDoc[], invoiceId: string): PaymentDoc | null {
  const succeeded = payments.filter((p) => p.invoice_id === invoiceId && p.payment_status === "succeeded");
  succeeded.sort(
    (a, b) => b.created_at.getTime() - a.created_at.getTime() || (a._id < b._id ? 1 : a._id > b._id ? -1 : 0),
  );
  return succeeded[0] ?? null;
}

/**
 * credit_note_refund — every credit note refund requested (refund_amount_cents > 0) on an invoice
 * whose latest succeeded payment went through a provider has its refund record in the payment
 * service's `refunds` (services/payment/src/use-cases/refunds/refund-credit-note.ts), executed at
 * most once:
 *  - exactly one refund names the note (none: never executed; two or more: executed twice);
 *  - it refunds the note's refund amount, through that payment, and not more than the payment brought;
 *  - once its outcome reached the note (applied), the note's refund_status is that outcome;
 *  - every credit-note refund names a note that exists.
 * A note without a provider payment is refunded outside the platform (its refund stays pending, as
 * in Lago): nothing to find. Notes changed within the grace period are left for the next run. A
 * payment's overpaid part given back (refund kind `overpayment`) is not a credit note's refund and
 * is not judged here. Whether the provider paid the money back is on the provider's side.
 */
export function checkCreditNoteRefunds(
  ctx: CheckContext,
  creditNotes: readonly CreditNoteDoc[],
  refunds: readonly RefundDoc[],
  payments: readonly PaymentDoc[],
): CheckOutcome {
  const f = new Findings("credit_note_refund", ctx);
  const noteRefunds = refunds.filter((r) => (r.kind ?? "credit_note") === "credit_note");
  const refundsOf = new Map<string, RefundDoc[]>();
  for (const r of noteRefunds) refundsOf.set(r.credit_note_id, [...(refundsOf.get(r.credit_note_id) ?? []), r]);
  const noteIds = new Set(creditNotes.map((n) => n._id));
  const paymentOf = new Map(payments.map((p) => [p._id, p]));
  for (const [noteId, list] of refundsOf) {
    if (!noteIds.has(noteId))
      f.breach(
        "refund_without_credit_note",
        `${list.length} refund(s) name credit note ${noteId}, which does not exist`,
        list.map(refundRecord),
      );
  }
  for (const note of creditNotes) {
    if (!(note.refund_amount_cents > 0)) continue;
    const list = refundsOf.get(note._id) ?? [];
    const payment = latestSucceeded(payments, note.invoice_id);
    if (list.length === 0 && payment?.type !== "provider") continue;
    if (isRecent(ctx, note.updated_at) || list.some((r) => isRecent(ctx, r.updated_at))) {
      f.skipped++;
      continue;
    }
    f.checked++;
    const records = (extra: BreachRecord[] = []) => [noteRecord(note), ...list.map(refundRecord), ...extra];
    if (list.length === 0) {
      f.breach(
        "refund_missing",
        `credit note ${note._id} (${note.number}) asks ${note.refund_amount_cents} back through provider payment ${payment!._id}, and no refund was recorded`,
        records([paymentRecord(payment!)]),
        { expected: 1, actual: 0 },
      );
      continue;
    }
    if (list.length > 1)
      f.breach(
        "refund_repeated",
        `credit note ${note._id} (${note.number}) was refunded ${list.length} times`,
        records(),
        { expected: 1, actual: list.length },
      );
    for (const refund of list) {
      const paid = paymentOf.get(refund.payment_id);
      if (refund.amount_cents !== note.refund_amount_cents) {
        f.breach(
          "refund_amount_mismatch",
          `refund ${refund._id} gives back ${refund.amount_cents}, credit note ${note._id} asks ${note.refund_amount_cents}`,
          records(),
          { expected: note.refund_amount_cents, actual: refund.amount_cents },
        );
      }
      if (!paid || paid.invoice_id !== note.invoice_id) {
        f.breach(
          "refund_payment_mismatch",
          `refund ${refund._id} goes through payment ${refund.payment_id}, ${paid ? `of invoice ${paid.invoice_id}, not the note's ${note.invoice_id}` : "which does not exist"}`,
          records(paid ? [paymentRecord(paid)] : []),
        );
      } else if (refund.amount_cents > paid.amount_cents) {
        f.breach(
          "refund_beyond_payment",
          `refund ${refund._id} gives back ${refund.amount_cents} through payment ${paid._id}, which brought ${paid.amount_cents}`,
          records([paymentRecord(paid)]),
          { expected: paid.amount_cents, actual: refund.amount_cents },
        );
      }
      if (refund.applied && refund.status !== "pending" && note.refund_status !== refund.status) {
        f.breach(
          "refund_status_mismatch",
          `refund ${refund._id} ${refund.status}, credit note ${note._id} shows refund_status ${String(note.refund_status)}`,
          records(),
          { expected: refund.status, actual: note.refund_status },
        );
      }
    }
  }
  return f.outcome();
}

function refundRecord(r: RefundDoc): BreachRecord {
  return {
    type: "refund",
    id: r._id,
    fields: {
      credit_note_id: r.credit_note_id,
      invoice_id: r.invoice_id,
      payment_id: r.payment_id,
      amount_cents: r.amount_cents,
      status: r.status,
      applied: r.applied ?? null,
      updated_at: iso(r.updated_at),
    },
  };
}
