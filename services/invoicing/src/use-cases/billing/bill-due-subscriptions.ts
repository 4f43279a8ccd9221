import { nextEntryOf, type CustomerCopy, type SubscriptionCopy } from "../../domain/copies";
import { invoiceIdOf, newInvoice, withCustomSections } from "../../domain/compose-invoice";
import type { PricedLine } from "../../domain/invoice-fees";
import { lineKey, type Invoice } from "../../domain/invoice";
import { invoicingTerms } from "../../domain/invoicing-terms";
import { storedEvents } from "../../events/invoice-events";
import type { DueScope } from "../../persistence/copy-repository";
import type { BillingDeps } from "./deps";
import { finalizeOpenInvoices } from "../invoices/finalize-open-invoice";
import { progressiveCreditOf } from "../progressive/progressive-credit";
import { creditProgressiveExcess } from "../progressive/credit-progressive-excess";
import { priceLines } from "./price-lines";
import { scheduleSubscription } from "./schedule-subscription";
import { billAdvanceCharges } from "./bill-advance-charges";
import { storeRecurringAdvanceFees } from "./recurring-advance-fees";
import { runBounded } from "./run-bounded";
import { sectionsOfInvoice } from "../invoices/invoice-sections";

/** The subscriptions of one customer due at one instant: they go on one invoice. */
interface DueGroup {
  organizationId: string;
  customerId: string;
  at: Date;
  copies: SubscriptionCopy[];
}

const entryKey = (copy: SubscriptionCopy) => lineKey({ subscription_id: copy.id, ...nextEntryOf(copy)! });

function groupsOf(due: readonly SubscriptionCopy[]): DueGroup[] {
  const groups = new Map<string, DueGroup>();
  for (const copy of due) {
    const at = copy.next_billing_at!;
    const key = `${copy.organization_id}|${copy.subscription.svc_customer_id}|${at.toISOString()}`;
    const group = groups.get(key) ?? {
      organizationId: copy.organization_id,
      customerId: copy.subscription.svc_customer_id,
      at,
      copies: [],
    };
    group.copies.push(copy);
    groups.set(key, group);
  }
  // on an invoice: what ends first (an upgrade's old plan), then what continues, then what starts; older subscriptions first
  const rank = { subscription_terminating: 0, subscription_periodic: 1, subscription_starting: 2 };
  const order = (c: SubscriptionCopy) => `${rank[c.next_billing_reason!]}|${c.subscription.started_at ?? ""}|${c.id}`;
  for (const g of groups.values()) g.copies.sort((a, b) => order(a).localeCompare(order(b)));
  return [...groups.values()];
}

/**
 * One billing pass: the subscriptions whose next billing has come (in scope, a batch at a time)
 * are invoiced, ONE invoice per customer and instant covering all of that customer's subscriptions
 * due then (periodic, starting, termination and upgrade lines alike), priced with one usage call
 * for the whole batch. Each invoice is one document with a derived id (a retry, a restart or a
 * second replica writes it once); each subscription's schedule then moves on conditionally; an
 * invoice without a grace period is finalized at once. Returns how many billings were done.
 */
export async function billDueSubscriptions(deps: BillingDeps, scope: DueScope = {}): Promise<number> {
  const now = deps.clock.now();
  const started = performance.now();
  const due = await deps.copies.dueSubscriptions(now, deps.limits.batch, scope);
  if (due.length === 0) return 0;
  if (due.length >= deps.limits.batch) {
    // the batch may have cut its last customer's group: complete it (all of them go on one invoice)
    const last = due[due.length - 1]!;
    const rest = await deps.copies.dueSubscriptions(last.next_billing_at!, null, {
      organizationId: last.organization_id,
      customerId: last.subscription.svc_customer_id,
    });
    const have = new Set(due.map((c) => c.id));
    due.push(
      ...rest.filter((c) => !have.has(c.id) && c.next_billing_at!.getTime() === last.next_billing_at!.getTime()),
    );
  }
  const groups = groupsOf(due);

  // what is invoiced already (a retry, another replica): those billings only move their schedule on
  const existing = new Map(
    (await deps.invoices.findByIds(groups.map((g) => invoiceIdOf(g.organizationId, g.customerId, g.at, 0)))).map(
      (i) => [i.id, i],
    ),
  );
  const customers = new Map<string, CustomerCopy | null>();
  await Promise.all(
    [...new Set(groups.map((g) => g.customerId))].map(async (id) => customers.set(id, await deps.copies.customer(id))),
  );
  const billable: DueGroup[] = [];
  for (const g of groups) {
    if (!customers.get(g.customerId)) {
      // billed when its copy arrives (events/customers); unless it arrived meanwhile
      await deps.copies.markWaiting(g.organizationId, g.customerId);
      const arrived = await deps.copies.customer(g.customerId);
      if (!arrived || !(await deps.copies.takeWaiting(g.organizationId, g.customerId))) continue;
      customers.set(g.customerId, arrived);
    }
    billable.push(g);
  }
  const toPrice = billable.flatMap((g) => {
    const covered = new Set(
      existing.get(invoiceIdOf(g.organizationId, g.customerId, g.at, 0))?.lines.map(lineKey) ?? [],
    );
    return g.copies.filter((c) => !covered.has(entryKey(c))).map((copy) => ({ copy, entry: nextEntryOf(copy)! }));
  });
  const read = performance.now();
  const priced = new Map((await priceLines(deps, toPrice)).map((p) => [p.copy.id, p]));
  const pricedAt = performance.now();

  let billed = 0;
  const toFinalize: string[] = [];
  const spent = { invoice_ms: 0, schedule_ms: 0, finalize_ms: 0 };
  const lap = (since: number, part: keyof typeof spent) => {
    const t = performance.now();
    spent[part] += t - since;
    return t;
  };
  await runBounded(billable, deps.limits.concurrency, async (group) => {
    try {
      let t = performance.now();
      const open = await invoiceGroup(deps, group, customers.get(group.customerId)!, priced, now);
      // the paid pay-in-advance fees of regrouping charges: their own advance_charges invoice
      const advance = await billAdvanceCharges(deps, group, customers.get(group.customerId)!, priced);
      if (advance) open.push(advance);
      t = lap(t, "invoice_ms");
      // each subscription's schedule is its own document: moved on together
      await Promise.all(group.copies.map((copy) => scheduleSubscription(deps, copy.id, nextEntryOf(copy)!)));
      billed += group.copies.length;
      lap(t, "schedule_ms");
      toFinalize.push(...open.map((i) => i.id));
    } catch (err) {
      deps.logger.error(
        { err, organization_id: group.organizationId, customer_id: group.customerId, at: group.at },
        "billing failed; will retry",
      );
    }
  });
  // invoices without a grace period are finalized at once, together (numbered as one block per counter)
  const finalizing = performance.now();
  await finalizeOpenInvoices(deps, toFinalize, { refresh: false }).catch((err) =>
    deps.logger.error({ err }, "finalizing the pass's invoices failed; the next due pass resumes them"),
  );
  spent.finalize_ms = performance.now() - finalizing;
  const ms = (t: number) => Math.round(t);
  deps.logger.info(
    {
      subscriptions: due.length,
      invoices: billable.length,
      billed,
      read_ms: ms(read - started),
      pricing_ms: ms(pricedAt - read),
      writing_ms: ms(performance.now() - pricedAt),
      invoice_ms_total: ms(spent.invoice_ms),
      schedule_ms_total: ms(spent.schedule_ms),
      finalize_ms: ms(spent.finalize_ms),
    },
    "billing pass",
  );
  return billed;
}

/**
 * Stores the invoice(s) of a group: part 0 normally; a further part only for subscriptions an
 * existing part does not cover. Returns the stored invoices still to finalize at once.
 */
async function invoiceGroup(
  deps: BillingDeps,
  group: DueGroup,
  customer: CustomerCopy,
  priced: Map<string, PricedLine>,
  now: Date,
): Promise<Invoice[]> {
  const open: Invoice[] = [];
  let remaining = group.copies;
  for (let part = 0; remaining.length > 0; part++) {
    const id = invoiceIdOf(group.organizationId, group.customerId, group.at, part);
    let stored = await deps.invoices.findById(id);
    if (!stored) {
      const lines = remaining.map((c) => priced.get(c.id)).filter((p): p is PricedLine => !!p);
      const c = customer.customer;
      const entity = c.billing_entity_code
        ? await deps.billingEntities.get(group.organizationId, c.billing_entity_code)
        : null;
      // not-invoiceable pay-in-advance fees never go on it (Lago): they wait for their payment, then an
      // advance_charges invoice (bill-advance-charges.ts); a recurring metric's carried-over units are
      // billed for the period that starts as such a fee, stored BEFORE the invoice (a retry finds the invoice)
      const progressiveCredit = await progressiveCreditOf(deps, group.organizationId, c.external_id, lines);
      const made = newInvoice({
        organizationId: group.organizationId,
        customer,
        entity,
        terms: invoicingTerms(c, entity),
        billedAt: group.at,
        part,
        sandbox: remaining[0]!.sandbox,
        lines,
        now,
        progressiveCredit,
      });
      // a draft shows the custom sections that apply when it is made (Lago); an invoice finalized at once gets them from its finalization plan
      const customerSections =
        made.status === "draft" ? await deps.documentParties.sections(group.organizationId, c.external_id) : undefined;
      const invoice = customerSections
        ? withCustomSections(made, await sectionsOfInvoice(deps, made, customerSections, group.copies), now)
        : made;
      await storeRecurringAdvanceFees(deps, id, customer, entity, lines, invoice.currency);
      const events = storedEvents(invoice, now);
      if (await deps.invoices.insert(invoice, events)) {
        await deps.publish(invoice.id, events);
        stored = invoice;
      } else {
        stored = await deps.invoices.findById(id); // another replica stored it first
      }
    }
    if (!stored) throw new Error(`invoice ${id} vanished`);
    // a progressive credit above its charges: the excess is credited on the progressive invoice (before this one is finalized)
    if (stored.progressive_credit && (stored.status === "generating" || stored.status === "draft"))
      await creditProgressiveExcess(deps, stored);
    if (stored.status === "generating") open.push(stored);
    const covered = new Set(stored.lines.map(lineKey));
    remaining = remaining.filter((c) => !covered.has(entryKey(c)));
  }
  return open;
}
