import { OrganizationMarks, readByIds } from "@billing/mongo";
import type { Invoice } from "../domain/invoice";
import {
  toInvoice as invoiceOf,
  type InvoiceDoc,
  type LifetimeUsageDoc,
  type Models,
  type UsageKeyDoc,
} from "./models";

export interface HistoricalUsage {
  historical_usage_amount_cents: number;
  created_at: Date | null;
  updated_at: Date | null;
}

const marksOf = new WeakMap<Models, OrganizationMarks>();

/**
 * The marks of the organizations that bill progressively (models.ts: progressive_organizations):
 * one per registered models, shared by the copies that write them and the checks that read them.
 */
export function progressiveMarks(models: Models): OrganizationMarks {
  let marks = marksOf.get(models);
  if (!marks) marksOf.set(models, (marks = new OrganizationMarks(models.progressiveOrganizations.collection)));
  return marks;
}

const lifetimeKey = (organizationId: string, externalSubscriptionId: string) =>
  `${organizationId}|${externalSubscriptionId}`;

/**
 * Progressive billing's reads and writes: the invoices a subscription's lifetime usage is measured
 * from, and its imported historical usage.
 */
export class ProgressiveRepository {
  /**
   * The organizations that have (had) a subscription copy with usage thresholds (CopyRepository.putUsageKey
   * marks them before writing the key): a check of ingested usage stops at one keyed read for the others.
   */
  private readonly marks: OrganizationMarks;

  constructor(private readonly models: Models) {
    this.marks = progressiveMarks(models);
  }

  /**
   * The subscription and progressive invoices (open or finalized) of an external subscription:
   * the lifetime usage's invoiced part and the progressive invoices of its periods. One query per
   * subscription checked (never per event); real MongoDB walks the
   * (organization_id, external_customer_id, lines.external_subscription_id) index.
   */
  async invoicesOf(
    organizationId: string,
    externalCustomerId: string,
    externalSubscriptionId: string,
  ): Promise<Invoice[]> {
    const docs = await this.models.invoices
      .find(
        {
          organization_id: organizationId,
          external_customer_id: externalCustomerId,
          "lines.external_subscription_id": externalSubscriptionId,
          invoice_type: { $in: ["subscription", "progressive_billing"] },
          status: { $in: ["generating", "draft", "finalized"] },
        },
        { outbox: 0, sequences: 0 },
      )
      .lean<InvoiceDoc[]>();
    return docs.map(invoiceOf);
  }

  /**
   * The external ids of an organization's active subscriptions billed progressively (a test clock
   * step checks them all); real MongoDB walks the (organization_id, next_billing_at) index prefix.
   */
  async progressiveSubscriptionsOf(organizationId: string): Promise<string[]> {
    const docs = await this.models.subscriptions
      .find(
        {
          organization_id: organizationId,
          "subscription.status": "active",
          "plan.usage_thresholds.0": { $exists: true },
        },
        { "subscription.external_id": 1 },
      )
      .lean<Array<{ subscription: { external_id: string } }>>();
    return [...new Set(docs.map((d) => d.subscription.external_id))];
  }

  /** Whether the organization has (had) a subscription copy with usage thresholds (its mark). */
  billsProgressively(organizationId: string): Promise<boolean> {
    return this.marks.has(organizationId);
  }

  /** Marks the organizations whose copies with usage thresholds were stored before marks existed (once per database). */
  async markProgressiveOrganizations(now: Date): Promise<void> {
    await this.marks.backfill(
      async () =>
        (
          await this.models.subscriptions.distinct("organization_id", { "plan.usage_thresholds.0": { $exists: true } })
        ).map(String),
      now,
    );
  }

  /**
   * The newest copies of an envelope's external subscriptions that bill progressively (active, with
   * usage thresholds, not disabled: Lago's applicable_usage_thresholds is empty then), read by `_id`
   * (current usage's keys; in chunks, fast on the test server too) with the conditions in the query,
   * so the copies of the others (each holds its whole plan) never leave the database. Nothing is
   * read for an organization that never billed progressively.
   */
  async progressiveCopies(organizationId: string, externalSubscriptionIds: readonly string[]) {
    if (!(await this.billsProgressively(organizationId))) return [];
    const docs = await readByIds(
      externalSubscriptionIds.map((id) => `${organizationId}|${id}`),
      (ids) =>
        this.models.usageKeys
          .find({
            _id: { $in: ids },
            "subscription.status": "active",
            "subscription.progressive_billing_disabled": { $ne: true },
            "plan.usage_thresholds.0": { $exists: true },
          })
          .lean<UsageKeyDoc[]>(),
    );
    return docs.map((d) => ({
      id: d.subscription_id,
      external_customer_id: d.external_customer_id,
      subscription: d.subscription,
      plan: d.plan,
      version: d.version,
    }));
  }

  /**
   * The invoices several external subscriptions' lifetime usage is measured from, in ONE query
   * (a check of an envelope's subscriptions), with only what the measure reads (the latest
   * progressive invoice is read whole, by id, when a crossing is invoiced). Real MongoDB walks
   * the (organization_id, lines.external_subscription_id, invoice_type) index.
   */
  async invoicesOfMany(
    organizationId: string,
    externalSubscriptionIds: readonly string[],
  ): Promise<Map<string, Invoice[]>> {
    const docs = await this.models.invoices
      .find(
        {
          organization_id: organizationId,
          "lines.external_subscription_id": { $in: [...externalSubscriptionIds] },
          invoice_type: { $in: ["subscription", "progressive_billing"] },
          status: { $in: ["generating", "draft", "finalized"] },
        },
        {
          invoice_type: 1,
          status: 1,
          billed_at: 1,
          created_at: 1,
          "lines.external_subscription_id": 1,
          "lines.charges_from": 1,
          "fees.fee_type": 1,
          "fees.external_subscription_id": 1,
          "fees.amount_cents": 1,
          "amounts.fees_amount_cents": 1,
        },
      )
      .lean<InvoiceDoc[]>();
    const out = new Map<string, Invoice[]>(externalSubscriptionIds.map((id) => [id, []]));
    for (const doc of docs) {
      const invoice = invoiceOf(doc);
      for (const id of new Set(invoice.lines.map((l) => l.external_subscription_id))) out.get(id)?.push(invoice);
    }
    return out;
  }

  /** Several subscriptions' imported historical usage, read by `_id` (in chunks). */
  async historicalUsageMany(
    organizationId: string,
    externalSubscriptionIds: readonly string[],
  ): Promise<Map<string, number>> {
    const docs = await readByIds(
      externalSubscriptionIds.map((id) => lifetimeKey(organizationId, id)),
      (ids) => this.models.lifetimeUsages.find({ _id: { $in: ids } }).lean<LifetimeUsageDoc[]>(),
    );
    return new Map(docs.map((d) => [d.external_subscription_id, d.historical_usage_amount_cents ?? 0]));
  }

  /** The imported historical usage (keyed read); zero when never set. */
  async historicalUsage(organizationId: string, externalSubscriptionId: string): Promise<HistoricalUsage> {
    const doc = await this.models.lifetimeUsages
      .findById(lifetimeKey(organizationId, externalSubscriptionId))
      .lean<LifetimeUsageDoc>();
    return {
      historical_usage_amount_cents: doc?.historical_usage_amount_cents ?? 0,
      created_at: doc?.created_at ?? null,
      updated_at: doc?.updated_at ?? null,
    };
  }

  /** Sets the imported historical usage (idempotent: the same value written again changes nothing). */
  async setHistoricalUsage(
    organizationId: string,
    externalSubscriptionId: string,
    cents: number,
    now: Date,
  ): Promise<void> {
    await this.models.lifetimeUsages.collection.updateOne(
      { _id: lifetimeKey(organizationId, externalSubscriptionId) },
      {
        $set: { historical_usage_amount_cents: cents, updated_at: now },
        $setOnInsert: {
          organization_id: organizationId,
          external_subscription_id: externalSubscriptionId,
          created_at: now,
        },
      },
      { upsert: true },
    );
  }
}
