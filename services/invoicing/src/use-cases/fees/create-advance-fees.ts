import { RetryLater, Subjects, type Envelope } from "@billing/bus";
import { atFrozenTime } from "@billing/clock";
import { eventData, isEvent, type AdvanceFeeData } from "@billing/contracts";
import {
  advanceFeeDraft,
  advanceFeeTaxer,
  advanceFeeInvoice,
  ownInvoice,
  type AdvanceFeeRecord,
} from "../../domain/advance-fees";
import type { CustomerCopy } from "../../domain/copies";
import type { Invoice } from "../../domain/invoice";
import type { BillingEntityTerms } from "../../domain/invoicing-terms";
import { invoicingTerms } from "../../domain/invoicing-terms";
import { advanceFeesEvents } from "../../events/advance-fee-events";
import { finalizeOpenInvoices } from "../invoices/finalize-open-invoice";
import { advanceFeeBatchEnvelopes, advanceFeePhaseSeconds } from "../../metrics";
import type { FeeDeps } from "./deps";

/** One envelope's fees, ready to store: made at the envelope's time. */
interface EnvelopeFees {
  envelope: Envelope;
  /** the time its fees and invoices are made at: a sandbox's events' acknowledgement, else the envelope's frozen time or now */
  at: Date | null;
  records: AdvanceFeeRecord[];
  invoices: Invoice[];
  now: Date;
}

/** What a batch stored, and the publication of its fees' events (run after the batch is acknowledged, in batch order). */
export interface CreatedAdvanceFees {
  created: number;
  publish: () => Promise<void>;
}

/**
 * The fees of consecutive `billing.usage.event.ingested` envelopes, in stream order (billing-rules
 * §1.12), exactly once whatever the redelivery, restart, replica or batching:
 * 1. the usage service prices the envelopes' events on their pay-in-advance charges, one call for
 *    the batch (it keeps one answer per envelope: an envelope asked again, alone or in another
 *    batch, gets the same fees);
 * 2. the fees of the whole batch are stored with one unordered insert, `_id` = the fee's id derived
 *    from (event, charge, filter): a second insert is a no-op. A fee of an invoiceable charge names
 *    its own invoice (id derived from the fee); the others wait, taxed now: paid ones of a charge
 *    that regroups paid fees go on the next billing run's advance_charges invoice, the rest are
 *    never invoiced (Lago);
 * 3. each invoiceable fee's invoice is stored (derived id) and finalized at once through the
 *    invoice pipeline (coupons, taxes, credit notes, prepaid credits; numbering), envelope by
 *    envelope at its time: a finalization cut short is resumed by the redelivery or the next due pass;
 * 4. the fees' `advance_fees.created` events (one per envelope, up to 250 fees each) are written once
 *    (one insert for the batch, after the fees and invoices); the caller publishes them (the relay
 *    does if it cannot).
 * The batch is acknowledged only after all of it; any failure is retried (same answers, same ids).
 */
export async function createAdvanceFeesBatch(
  deps: FeeDeps,
  envelopes: readonly Envelope[],
  memo?: { sandbox: Map<string, boolean> },
): Promise<CreatedAdvanceFees> {
  return (await priceAdvanceFeesBatch(deps, envelopes, memo))();
}

/**
 * createAdvanceFeesBatch in two steps: step 1 (the pricing, in stream order) now; steps 2–4 (the
 * storage) in the function it answers, which the consumer runs while the next batch is priced.
 */
export async function priceAdvanceFeesBatch(
  deps: FeeDeps,
  envelopes: readonly Envelope[],
  memo?: { sandbox: Map<string, boolean> },
): Promise<() => Promise<CreatedAdvanceFees>> {
  const items = envelopes
    .filter((e) => isEvent(e, [Subjects.usage.eventIngested]))
    .map((envelope) => ({
      envelope,
      data: eventData(envelope as Envelope & { type: typeof Subjects.usage.eventIngested }),
    }))
    .filter((i) => i.data.events.length > 0);
  const nothing = async () => ({ created: 0, publish: async () => undefined });
  if (items.length === 0) return nothing;
  advanceFeeBatchEnvelopes.observe(items.length);
  const pricing = advanceFeePhaseSeconds.startTimer({ phase: "price" });
  const priced = await deps.advanceFees.priceBatch(
    items.map((i) => ({
      organizationId: i.envelope.organization_id,
      envelopeId: i.envelope.id,
      events: i.data.events,
    })),
  );
  pricing();
  if (priced.every((fees) => fees.length === 0)) return nothing;
  return () => storeAdvanceFees(deps, items, priced, memo);
}

/** Steps 2–4 of createAdvanceFeesBatch: the priced fees of the batch's envelopes stored, invoiced and announced. */
async function storeAdvanceFees(
  deps: FeeDeps,
  items: ReadonlyArray<{ envelope: Envelope; data: { events: ReadonlyArray<{ created_at: string }> } }>,
  priced: AdvanceFeeData[][],
  memo?: { sandbox: Map<string, boolean> },
): Promise<CreatedAdvanceFees> {
  const all = priced.flat();
  let phase = advanceFeePhaseSeconds.startTimer({ phase: "copies" });
  const next = (name: string) => {
    phase();
    phase = advanceFeePhaseSeconds.startTimer({ phase: name });
  };

  // the copies the fees need, read once for the batch: whether each subscription is a sandbox one
  // (it never changes: remembered), and the customers (their terms and taxes may change: read each time)
  const sandboxOf = memo?.sandbox ?? new Map<string, boolean>();
  const unknownSubscriptions = [...new Set(all.map((f) => f.subscription_id))].filter((id) => !sandboxOf.has(id));
  for (const copy of await deps.copies.subscriptionsByIds(unknownSubscriptions)) {
    if (sandboxOf.size > 100_000) sandboxOf.clear();
    sandboxOf.set(copy.id, copy.sandbox);
  }
  const unknown = all.find((f) => !sandboxOf.has(f.subscription_id));
  if (unknown) throw new RetryLater(`subscription ${unknown.subscription_id} not copied yet`, 1000);
  const customers = new Map(
    (await deps.copies.customersByIds([...new Set(all.map((f) => f.customer_id))])).map((c) => [c.id, c]),
  );
  const missing = all.find((f) => !customers.has(f.customer_id));
  // the customer's copy arrives with its event; the usage service answers the same fees then
  if (missing) throw new RetryLater(`customer ${missing.customer_id} not copied yet`, 1000);
  const entities = new Map<string, BillingEntityTerms | null>();
  for (const c of customers.values()) {
    const code = c.customer.billing_entity_code;
    const key = `${c.organization_id}|${code}`;
    if (code && !entities.has(key)) entities.set(key, await deps.billingEntities.get(c.organization_id, code));
  }
  const entityOf = (c: CustomerCopy) =>
    c.customer.billing_entity_code
      ? (entities.get(`${c.organization_id}|${c.customer.billing_entity_code}`) ?? null)
      : null;

  const done: EnvelopeFees[] = [];
  const taxed = advanceFeeTaxer();
  items.forEach(({ envelope, data }, i) => {
    const fees = priced[i]!;
    if (fees.length === 0) return;
    // a sandbox organization's fees and invoices are made at its test clock's time: the time its events were acknowledged at
    const sandbox = sandboxOf.get(fees[0]!.subscription_id)!;
    const at = sandbox
      ? new Date(Math.max(...data.events.map((e) => Date.parse(e.created_at))))
      : envelope.frozen_time
        ? new Date(envelope.frozen_time)
        : null;
    const now = at ? atFrozenTime(at, () => deps.clock.now()) : deps.clock.now();
    const { records, invoices } = feesOf(fees, customers, entityOf, sandbox, now, taxed);
    done.push({ envelope, at, records, invoices, now });
  });
  next("fees");
  await deps.fees.insertMany(done.flatMap((d) => d.records));
  next("invoices");

  // the invoices of the envelopes made at the same time (all of an ordinary organization's: now) together, in stream order
  const byTime = new Map<string, { at: Date | null; invoices: Invoice[] }>();
  for (const d of done) {
    if (d.invoices.length === 0) continue;
    const key = d.at?.toISOString() ?? "now";
    const group = byTime.get(key) ?? { at: d.at, invoices: [] };
    group.invoices.push(...d.invoices);
    byTime.set(key, group);
  }
  for (const { at, invoices } of byTime.values()) {
    const finalize = async () => {
      for (const invoice of invoices) await deps.invoices.insert(invoice, []); // false: stored by an earlier delivery
      await finalizeOpenInvoices(
        deps,
        invoices.map((inv) => inv.id),
        { refresh: false },
      );
    };
    await (at ? atFrozenTime(at, finalize) : finalize());
  }

  // every fee announced once (Lago's fee.created for each pay-in-advance fee), after it is stored
  next("outbox");
  const batches = done.map((d) => {
    const id = `${d.envelope.organization_id}|${d.envelope.id}`;
    return { id, events: advanceFeesEvents(id, d.records, d.now) };
  });
  const stored = new Set(await deps.fees.insertBatches(batches));
  const toPublish = batches.filter((b) => stored.has(b.id));
  phase();
  return {
    created: done.reduce((n, d) => n + d.records.length, 0),
    publish: async () => {
      if (toPublish.length === 0) return;
      const end = advanceFeePhaseSeconds.startTimer({ phase: "publish" });
      await deps.publishManyFeeEvents(new Map(toPublish.map((b) => [b.id, b.events])));
      end();
    },
  };
}

/** The fee records (taxed) and own invoices of one envelope's priced fees. Pure. */
function feesOf(
  priced: readonly AdvanceFeeData[],
  customers: ReadonlyMap<string, CustomerCopy>,
  entityOf: (c: CustomerCopy) => BillingEntityTerms | null,
  sandbox: boolean,
  now: Date,
  taxedAdvanceFee: ReturnType<typeof advanceFeeTaxer>,
): { records: AdvanceFeeRecord[]; invoices: Invoice[] } {
  const records: AdvanceFeeRecord[] = [];
  const invoices: Invoice[] = [];
  for (const fee of priced) {
    const customer = customers.get(fee.customer_id)!;
    const entity = entityOf(customer);
    const draft = advanceFeeDraft(fee, customer.customer, entity?.taxes ?? []);
    let invoiceId: string | null = null;
    let taxed: AdvanceFeeRecord["fee"];
    if (ownInvoice(fee)) {
      const invoice = advanceFeeInvoice({
        fee,
        draft,
        customer,
        entity,
        terms: invoicingTerms(customer.customer, entity),
        sandbox,
        now,
      });
      invoices.push(invoice);
      invoiceId = invoice.id;
      taxed = invoice.fees[0]!;
    } else {
      taxed = taxedAdvanceFee(draft, fee.currency);
    }
    records.push(recordOf(fee, taxed, invoiceId, now));
  }
  return { records, invoices };
}

function recordOf(
  fee: AdvanceFeeData,
  taxed: AdvanceFeeRecord["fee"],
  invoiceId: string | null,
  now: Date,
): AdvanceFeeRecord {
  return {
    id: fee.id,
    organization_id: fee.organization_id,
    customer_id: fee.customer_id,
    external_customer_id: fee.external_customer_id,
    subscription_id: fee.subscription_id,
    external_subscription_id: fee.external_subscription_id,
    billable_metric_code: fee.metric.code,
    currency: fee.currency,
    fee: taxed,
    invoice_id: invoiceId,
    event_transaction_id: fee.event_transaction_id,
    payment_status: "pending",
    succeeded_at: null,
    failed_at: null,
    refunded_at: null,
    created_at: now,
    updated_at: now,
    revision: 0,
  };
}
