import { derivedUuid } from "@billing/bus";
import { AppError } from "@billing/errors";
import { addDays, localDateOf } from "@billing/pricing";
import type { Invoice } from "../../domain/invoice";
import { priceInvoice } from "../../domain/invoice-totals";
import type { FinalizeDeps } from "./deps";
import { finalizeOpenInvoice } from "./finalize-open-invoice";

/** The id of the invoice regenerated from a voided one: derived, so a retry or a second call finds the same one. */
export const regeneratedIdOf = (voidedId: string) => derivedUuid(`regenerated|${voidedId}`);

/**
 * POST /invoices/{id}/regenerate (Lago's admin route): a voided invoice's fees billed again on a
 * new invoice, finalized at once through the one finalization (coupons, taxes, credit notes,
 * wallets, a new number), issued today. One regeneration per voided invoice: its id derives from
 * the voided one, so a retry (or a crash between the insert and the finalization) answers, or
 * resumes, the same invoice. Not voided → 405 not_voided.
 */
export async function regenerateInvoice(deps: FinalizeDeps, organizationId: string, id: string): Promise<Invoice> {
  const voided = await deps.invoices.find(organizationId, id);
  if (!voided) throw AppError.notFound("invoice");
  if (voided.status !== "voided") throw new AppError("not_allowed", "not_voided");
  const newId = regeneratedIdOf(voided.id);
  if (!(await deps.invoices.findById(newId))) {
    const now = deps.clock.now();
    const fees = voided.fees.map((f) => ({ ...f, id: derivedUuid(`${newId}|fee|${f.id}`) }));
    const fresh = fees.map((f) => ({
      ...f,
      true_up_parent_fee_id: f.true_up_parent_fee_id ? derivedUuid(`${newId}|fee|${f.true_up_parent_fee_id}`) : null,
    }));
    const priced = priceInvoice({ currency: voided.currency, fees: fresh, coupons: [], finalizing: false });
    const issuing = localDateOf(now, voided.customer.applicable_timezone || "UTC");
    const invoice: Invoice & { voided_invoice_id: string } = {
      ...voided,
      id: newId,
      voided_invoice_id: voided.id,
      status: "generating",
      payment_status: "pending",
      total_paid_amount_cents: 0,
      applied_payments: [],
      sequential_id: null,
      issuing_date: issuing,
      payment_due_date: addDays(issuing, voided.net_payment_term),
      expected_finalization_date: null,
      finalize_at: now,
      fees: priced.fees,
      amounts: priced.amounts,
      applied_taxes: priced.applied_taxes,
      credits: [],
      metadata: [],
      finalizing: null,
      payment_overdue_announced_at: null,
      voided_at: null,
      revision: 0,
      created_at: now,
      updated_at: now,
    };
    await deps.invoices.insert(invoice, []);
  }
  const final = await finalizeOpenInvoice(deps, newId, { refresh: false });
  if (!final) throw AppError.notFound("invoice");
  return final;
}
