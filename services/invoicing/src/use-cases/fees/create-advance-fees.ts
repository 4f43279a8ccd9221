import { RetryLater, Subjects, type Envelope } from "@billing/bus";
import { atFrozenTime } from "@billing/clock";
import type { EventData } from "@billing/contracts";
import {
  advanceFeeDraft,
  advanceFeeInvoice,
  ownInvoice,
  taxedAdvanceFee,
  type AdvanceFeeRecord,
  type PricedAdvanceFee,
} from "../../domain/advance-fees";
import type { CustomerCopy } from "../../domain/copies";
import type { Invoice } from "../../domain/invoice";
import type { BillingEntityTerms } from "../../domain/invoicing-terms";
import { invoicingTerms } from "../../domain/invoicing-terms";
import { advanceFeeEvent } from "../../events/advance-fee-events";
import { finalizeOpenInvoices } from "../invoices/finalize-open-invoice";
import type { FeeDeps } from "./deps";

type Ingested = EventData<typeof Subjects.usage.eventIngested>;

/**
 * The fees of one `billing.usage.event.ingested` envelope (billing-rules §1.12), exactly once
 * whatever the redelivery, restart or replica:
 * 1. the usage service prices the envelope's events on their pay-in-advance charges (one call; it
 *    answers the same fees when asked again about the same envelope);
 * 2. the fees are stored, `_id` = the fee's id derived from (event, charge, filter): a second
 *    insert is refused. A fee of an invoiceable charge names its own invoice (id derived from the
 *    fee); the others wait for the subscription's next periodic invoice, taxed now;
 * 3. each invoiceable fee's invoice is stored (derived id) and finalized at once through the
 *    invoice pipeline (coupons, taxes, credit notes, prepaid credits; numbering): a finalization
 *    cut short is resumed by the redelivery or by the next due pass;
 * 4. the fees' `advance_fee.created` events are written once per envelope (after the fees and
 *    invoices), then published.
 * The message is acknowledged only after all of it; any failure is retried (same answers, same ids).
 */
export async function createAdvanceFees(deps: FeeDeps, envelope: Envelope, data: Ingested): Promise<number> {
  if (data.events.length === 0) return 0;
  const org = envelope.organization_id;
  const priced = await deps.advanceFees.price(org, envelope.id, JSON.stringify(data.events));
  if (priced.length === 0) return 0;
  // a sandbox organization's fees and invoices are made at its test clock's time: the time its events were acknowledged at
  const copy = await deps.copies.subscription(priced[0]!.subscription_id);
  if (!copy) throw new RetryLater(`subscription ${priced[0]!.subscription_id} not copied yet`, 1000);
  if (!copy.sandbox) return storeFees(deps, envelope, priced, false);
  const acknowledgedAt = new Date(Math.max(...data.events.map((e) => Date.parse(e.created_at))));
  return atFrozenTime(acknowledgedAt, () => storeFees(deps, envelope, priced, true));
}

async function storeFees(deps: FeeDeps, envelope: Envelope, priced: PricedAdvanceFee[], sandbox: boolean): Promise<number> {
  const org = envelope.organization_id;

  const customers = new Map<string, CustomerCopy>();
  await Promise.all([...new Set(priced.map((f) => f.customer_id))].map(async (id) => {
    const copy = await deps.copies.customer(id);
    if (copy) customers.set(id, copy);
  }));
  const missing = priced.find((f) => !customers.has(f.customer_id));
  // the customer's copy arrives with its event; the usage service answers the same fees then
  if (missing) throw new RetryLater(`customer ${missing.customer_id} not copied yet`, 1000);
  const entities = new Map<string, BillingEntityTerms | null>();
  for (const code of new Set([...customers.values()].map((c) => c.customer.billing_entity_code).filter((c): c is string => !!c))) {
    entities.set(code, await deps.billingEntities.get(org, code));
  }
  const entityOf = (c: CustomerCopy) => (c.customer.billing_entity_code ? entities.get(c.customer.billing_entity_code) ?? null : null);

  const now = deps.clock.now();
  const records: AdvanceFeeRecord[] = [];
  const invoices: Invoice[] = [];
  for (const fee of priced) {
    const customer = customers.get(fee.customer_id)!;
    const entity = entityOf(customer);
    const draft = advanceFeeDraft(fee, customer.customer, entity?.taxes ?? []);
    let invoiceId: string | null = null;
    let taxed = null;
    if (ownInvoice(fee)) {
      const invoice = advanceFeeInvoice({ fee, draft, customer, entity, terms: invoicingTerms(customer.customer, entity), sandbox, now });
      invoices.push(invoice);
      invoiceId = invoice.id;
      taxed = invoice.fees[0]!;
    } else {
      taxed = taxedAdvanceFee(draft, fee.currency);
    }
    records.push(recordOf(fee, taxed, invoiceId, now));
  }
  await deps.fees.insertMany(records);

  if (invoices.length > 0) {
    for (const invoice of invoices) await deps.invoices.insert(invoice, []); // false: stored by an earlier delivery
    await finalizeOpenInvoices(deps, invoices.map((i) => i.id), { refresh: false });
  }

  // every fee announced once (Lago's fee.created for each pay-in-advance fee), after it is stored
  const batchId = `${org}|${envelope.id}`;
  const events = records.map((r) => advanceFeeEvent(r, now));
  if (await deps.fees.insertBatch(batchId, events)) await deps.publishFeeEvents(batchId, events);
  return records.length;
}

function recordOf(fee: PricedAdvanceFee, taxed: AdvanceFeeRecord["fee"], invoiceId: string | null, now: Date): AdvanceFeeRecord {
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

