import { LOST_RACE, retryOnLostRace } from "@billing/mongo";
import { documentNumberPrefix, formatInvoiceNumber, type DocumentNumbering } from "@billing/pricing";
import { finalizedInvoice, withCustomSections } from "../../domain/compose-invoice";
import {
  OPEN_STATUSES,
  type CustomSection,
  type FeeDraft,
  type FinalizationPlan,
  type Invoice,
  type InvoiceCredit,
  type PlannedCoupon,
  type PlannedCreditNote,
} from "../../domain/invoice";
import { numberingScopes } from "../../domain/invoice-number";
import { priceInvoice } from "../../domain/invoice-totals";
import { finalizationDates, invoicingTerms, type BillingEntityTerms } from "../../domain/invoicing-terms";
import { finalizedEvents } from "../../events/invoice-events";
import { invoicesFinalized } from "../../metrics";
import type { FinalizeDeps } from "./deps";
import { runBounded } from "../billing/run-bounded";
import { refreshDraft } from "./refresh-draft";
import { memoizedCopies, sectionsOfInvoice } from "./invoice-sections";
import { consumeCreditNotes, creditNoteInput, plannedCreditNotes } from "../credit-notes/consume-credit-notes";

const isOpen = (invoice: Invoice | null): invoice is Invoice => !!invoice && OPEN_STATUSES.includes(invoice.status);

/** An open invoice whose finalization plan is stored and whose credits are consumed: what numbering and the final write need. */
interface Prepared {
  planned: Invoice;
  plan: FinalizationPlan;
  customer: Invoice["customer"];
  entity: BillingEntityTerms | null;
  consumed: PlannedCoupon[];
  credits: InvoiceCredit[];
  /** what each wallet gave, in order */
  prepaid: Array<{ wallet_id: string; amount_cents: number }>;
  /** what each credit note gave, oldest first */
  creditNotes: PlannedCreditNote[];
  closed: boolean;
}

/**
 * THE way an invoice is finalized (at once without a grace period, at the end of its grace period,
 * or on request), in steps that each survive a crash and a concurrent finalizer:
 * 1. the plan — the fees it finalizes (a draft's read again when `refresh`), the coupon credits
 *    it takes and the custom sections it shows — is stored on the invoice first; whoever stores
 *    it first decides for everyone, and an interrupted finalization is resumed by the next due pass;
 * 2. each credit is consumed in the catalog, idempotently per invoice (a retry consumes nothing twice);
 * 3. numbers are taken from the gap-free counters (a retry gets the same ones);
 * 4. the finalized invoice and its events are written in one conditional update.
 * A zero-amount invoice the customer does not finalize is closed: no number, no events.
 * Returns the invoice as stored; null when it does not exist.
 */
export async function finalizeOpenInvoice(
  deps: FinalizeDeps,
  invoiceId: string,
  options: { refresh: boolean },
): Promise<Invoice | null> {
  return (await finalizeOpenInvoices(deps, [invoiceId], options))[0]!;
}

/**
 * Many invoices finalized together (a billing pass's, the drafts whose grace period ended): steps 1,
 * 2 and 4 per invoice, `deps.limits.concurrency` at once; step 3 as one block per counter, so the
 * invoices of a pass never race each other for their organization's counter. Each answer is that
 * of `finalizeOpenInvoice`, in the order of `invoiceIds`; an invoice that fails rejects the call
 * after the others are done (the next due pass resumes it).
 */
export async function finalizeOpenInvoices(
  deps: FinalizeDeps,
  invoiceIds: readonly string[],
  options: { refresh: boolean },
): Promise<Array<Invoice | null>> {
  // the customer service is asked once per customer for the custom sections of the invoices planned here;
  // an invoice's subscriptions (or a one-off invoice's own choice) may choose others: their copies are
  // read once per subscription (a burst of pay-in-advance invoices bills the same few)
  const sections = new Map<string, Promise<CustomSection[]>>();
  const copies = memoizedCopies(deps);
  const sectionsOf = async (invoice: Invoice) => {
    const key = `${invoice.organization_id}|${invoice.customer.external_id}`;
    if (!sections.has(key))
      sections.set(key, deps.documentParties.sections(invoice.organization_id, invoice.customer.external_id));
    return sectionsOfInvoice({ ...deps, copies }, invoice, await sections.get(key)!);
  };
  const prepared = await settleBounded(invoiceIds, deps.limits.concurrency, (id) =>
    prepare(deps, id, options, sectionsOf),
  );
  const ready = prepared.flatMap((p) => (p.status === "fulfilled" && p.value && "plan" in p.value ? [p.value] : []));
  const numbers = await numbersOf(
    deps,
    ready.filter((p) => !p.closed),
  );
  const done = await settleBounded(prepared, deps.limits.concurrency, async (p) => {
    if (p.status === "rejected") throw p.reason;
    return p.value && "plan" in p.value
      ? complete(deps, p.value, numbers.get(p.value.planned.id) ?? null)
      : (p.value?.invoice ?? null);
  });
  const failed = done.find((d): d is PromiseRejectedResult => d.status === "rejected");
  if (failed) throw failed.reason;
  return done.map((d) => (d as PromiseFulfilledResult<Invoice | null>).value);
}

/** Steps 1 and 2: the plan stored, the credits consumed; or the invoice as it is when it is not open (or is another's to finalize). */
async function prepare(
  deps: FinalizeDeps,
  invoiceId: string,
  options: { refresh: boolean },
  sectionsOf: (invoice: Invoice) => Promise<CustomSection[]>,
): Promise<Prepared | { invoice: Invoice | null }> {
  const planned = await retryOnLostRace(`finalization of invoice ${invoiceId}`, async () => {
    const invoice = await deps.invoices.findById(invoiceId);
    if (!isOpen(invoice) || invoice.finalizing) return invoice;
    const plan = {
      ...(await planFinalization(deps, invoice, options.refresh && invoice.status === "draft")),
      custom_sections: await sectionsOf(invoice),
    };
    const stored = await deps.invoices.changeOpen(invoice, { set: { finalizing: plan }, finalizeBy: deps.clock.now() });
    return stored ? { ...invoice, finalizing: plan, revision: invoice.revision + 1 } : LOST_RACE;
  });
  if (!isOpen(planned) || !planned.finalizing) return { invoice: planned };
  const plan = planned.finalizing;
  const customer = (await deps.copies.customer(planned.customer_id))?.customer ?? planned.customer;
  const entity = planned.billing_entity_code
    ? await deps.billingEntities.get(planned.organization_id, planned.billing_entity_code)
    : null;
  const { consumed, credits } = await consumeCoupons(deps, planned, plan);
  const creditNotes = await consumeCreditNotes(deps, planned, plan.credit_notes ?? []);
  const prepaid = await consumeWallets(deps, planned, plan);
  const terms = invoicingTerms(customer, entity);
  const closed = plan.fees.reduce((n, f) => n + f.amount_cents, 0) === 0 && !terms.finalizeZero;
  return { planned, plan, customer, entity, consumed, credits, prepaid, creditNotes, closed };
}

/** Step 4: the finalized invoice and its events, in one conditional write. */
async function complete(deps: FinalizeDeps, p: Prepared, numbered: Numbered | null): Promise<Invoice | null> {
  const { planned } = p;
  const now = deps.clock.now();
  const dates =
    planned.status === "draft" ? finalizationDates(planned, invoicingTerms(p.customer, p.entity), now) : null;
  const final = withCustomSections(
    finalizedInvoice(planned, {
      fees: p.plan.fees,
      consumed: p.consumed,
      credits: p.credits,
      prepaid: p.prepaid,
      creditNotes: p.creditNotes,
      numbered,
      customer: p.customer,
      dates,
      now,
    }),
    p.plan.custom_sections,
    now,
  );
  return retryOnLostRace(`finalization of invoice ${planned.id}`, async () => {
    const current = await deps.invoices.findById(planned.id);
    if (!isOpen(current)) return current; // finalized by someone else meanwhile
    const events = finalizedEvents(final, current.status === "draft", now);
    const { id: _id, revision: _revision, ...fields } = final;
    if (!(await deps.invoices.changeOpen(current, { set: fields, events }))) return LOST_RACE;
    if (final.status === "finalized") invoicesFinalized.inc({ invoice_type: final.invoice_type });
    await deps.publish(planned.id, events);
    return { ...final, revision: current.revision + 1 };
  });
}

/** Runs `work` on each item, `concurrency` at once, and reports each outcome (one failure stops nothing). */
async function settleBounded<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<R>,
): Promise<PromiseSettledResult<R>[]> {
  const out: PromiseSettledResult<R>[] = new Array(items.length);
  await runBounded(
    items.map((item, index) => ({ item, index })),
    concurrency,
    async ({ item, index }) => {
      try {
        out[index] = { status: "fulfilled", value: await work(item) };
      } catch (reason) {
        out[index] = { status: "rejected", reason };
      }
    },
  );
  return out;
}

/** The fees to finalize and the coupon credits they take (billing-rules §3: coupons only when finalizing, on positive fees). */
async function planFinalization(deps: FinalizeDeps, invoice: Invoice, refresh: boolean): Promise<FinalizationPlan> {
  const fees: FeeDraft[] = refresh ? (await refreshDraft(deps, invoice)).fees : invoice.fees;
  // a credit invoice (a wallet top-up) takes neither coupons nor prepaid credits
  const positive =
    fees.reduce((n, f) => n + f.amount_cents, 0) > 0 &&
    (invoice.invoice_type === "subscription" || invoice.invoice_type === "progressive_billing");
  const [coupons, wallets, notes] = positive
    ? await Promise.all([
        deps.appliedCoupons.active(invoice.organization_id, invoice.customer_id),
        deps.wallets.active(invoice.organization_id, invoice.customer_id),
        deps.creditNotes.available(invoice.organization_id, invoice.customer_id, invoice.currency),
      ])
    : [[], [], []];
  // a wallet in another currency than the invoice's gives nothing to it
  const usable = wallets.filter((w) => !w.currency || w.currency === invoice.currency);
  const priced = priceInvoice({
    currency: invoice.currency,
    fees,
    coupons: coupons.map((c) => c.input),
    wallets: usable,
    creditNotes: notes.map(creditNoteInput),
    finalizing: true,
    progressiveCredit: invoice.progressive_credit,
  });
  return {
    fees,
    coupons: priced.coupons,
    wallets: priced.wallets,
    credit_notes: plannedCreditNotes(notes, priced.credit_notes),
  };
}

/**
 * Takes the planned prepaid credits (once per invoice and wallet: the wallet service keys the
 * transaction by both); a wallet that can no longer give its share gives nothing, and the
 * invoice's total keeps it (billing-rules §6: a wallet never goes below zero).
 */
async function consumeWallets(deps: FinalizeDeps, invoice: Invoice, plan: FinalizationPlan) {
  const prepaid: Array<{ wallet_id: string; amount_cents: number }> = [];
  for (const planned of plan.wallets ?? []) {
    const given = await deps.wallets.consume(
      invoice.organization_id,
      invoice.id,
      planned.wallet_id,
      planned.amount_cents,
    );
    if (given > 0) prepaid.push({ wallet_id: planned.wallet_id, amount_cents: given });
  }
  return prepaid;
}

/** Consumes the planned credits (idempotent per invoice); a coupon the catalog refuses now gives nothing. */
async function consumeCoupons(deps: FinalizeDeps, invoice: Invoice, plan: FinalizationPlan) {
  const consumed: PlannedCoupon[] = [];
  const credits: InvoiceCredit[] = [];
  for (const planned of plan.coupons) {
    const credit = await deps.appliedCoupons.consume(invoice.organization_id, invoice.id, {
      applied_coupon_id: planned.coupon.id,
      amount_cents: planned.amount_cents,
      currency: invoice.currency,
    });
    if (!credit) continue;
    consumed.push({ ...planned, amount_cents: credit.amount_cents });
    credits.push(credit);
  }
  return { consumed, credits };
}

type Numbered = { number: string; sequential_id: number };

/**
 * The invoices' numbers: each takes one from its billing entity's counter (one block per counter
 * for all of them) and one from its customer's, and its document number follows the entity's
 * numbering (billing-rules §4).
 */
async function numbersOf(deps: FinalizeDeps, invoices: readonly Prepared[]): Promise<Map<string, Numbered>> {
  const scopes = new Map(
    invoices.map((p) => [
      p.planned.id,
      numberingScopes(p.planned.organization_id, p.planned.billing_entity_code ?? "default", p.planned.customer_id),
    ]),
  );
  const byEntity = new Map<string, string[]>();
  for (const p of invoices) {
    const key = scopes.get(p.planned.id)!.entity;
    byEntity.set(key, [...(byEntity.get(key) ?? []), p.planned.id]);
  }
  const entitySequences = new Map<string, number>();
  for (const [key, ids] of byEntity)
    for (const [id, n] of await deps.numbers.allocateMany({ key, role: "entity" }, ids)) entitySequences.set(id, n);
  const numbered = new Map<string, Numbered>();
  await runBounded(invoices, deps.limits.concurrency, async ({ planned, customer, entity }) => {
    const customerSequence = await deps.numbers.allocate(
      { key: scopes.get(planned.id)!.customer, role: "customer" },
      planned.id,
    );
    const numbering = (entity?.document_numbering ?? "per_customer") as DocumentNumbering;
    const number = formatInvoiceNumber({
      document_numbering: numbering,
      prefix: entity ? documentNumberPrefix(entity) : "INV",
      sequence: numbering === "per_customer" ? customerSequence : entitySequences.get(planned.id)!,
      customer_sequential_id: customer.sequential_id,
      finalized_at: deps.clock.now(),
      timezone: entity?.timezone || planned.customer.applicable_timezone || "UTC",
    });
    numbered.set(planned.id, { number, sequential_id: customerSequence });
  });
  return numbered;
}
