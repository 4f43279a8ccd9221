import type { mongo } from "mongoose";
import { isDuplicateKeyError, type Filter } from "@billing/mongo";
import type { BillingEntry, CustomerCopy, SubscriptionCopy } from "../domain/copies";
import {
  toCustomerCopy as customerOf,
  toSubscriptionCopy as subscriptionOf,
  type CustomerCopyDoc,
  type CustomerKeyDoc,
  type Models,
  type SubscriptionCopyDoc,
  type UsageKeyDoc,
} from "./models";
import { progressiveMarks } from "./progressive-repository";

/**
 * Whose due work a pass takes: every ordinary organization's (no organization), one sandbox
 * organization's (its test clock), or one customer's (what a subscription event made due).
 */
export interface DueScope {
  organizationId?: string;
  customerId?: string;
}
/** What the documents a due pass lists have (subscription copies, invoices). */
export interface ScopedDoc {
  organization_id: string;
  customer_id: string;
  sandbox: boolean;
}
export function scopeFilter(scope: DueScope): Filter<ScopedDoc> {
  if (!scope.organizationId) return { sandbox: { $ne: true } };
  return scope.customerId
    ? { organization_id: scope.organizationId, customer_id: scope.customerId }
    : { organization_id: scope.organizationId };
}

type SubscriptionDoc = SubscriptionCopyDoc;
type CustomerDoc = CustomerCopyDoc;

/** The fields a subscription event writes; the schedule is written only by `setSchedule`. */
export type SubscriptionFields = Pick<
  SubscriptionCopy,
  "id" | "organization_id" | "subscription" | "plan" | "sandbox" | "version"
>;

/** The read copies: a newer version replaces an older one; an older or equal one changes nothing. */
export class CopyRepository {
  /** organizations billing progressively (marked before a copy with usage thresholds is stored) */
  private readonly progressive: ReturnType<typeof progressiveMarks>;

  constructor(private readonly models: Models) {
    this.progressive = progressiveMarks(models);
  }

  async subscription(id: string): Promise<SubscriptionCopy | null> {
    const doc = await this.models.subscriptions.findById(id).lean<SubscriptionDoc>();
    return doc ? subscriptionOf(doc) : null;
  }

  /** Stores the copy if it is newer than the stored one (keyed by _id: fast on the test server too); its schedule is kept. */
  async putSubscription(copy: SubscriptionFields): Promise<boolean> {
    const { id, ...fields } = copy;
    return this.putNewer(() =>
      this.models.subscriptions.collection.updateOne(
        { _id: id, version: { $lt: copy.version } },
        { $set: { ...fields, customer_id: copy.subscription.svc_customer_id } },
        { upsert: true },
      ),
    );
  }

  /**
   * Replaces the subscription's schedule only if its copy is still at `expected.version` and its
   * next billing still `expected.next` (a billing pass and an event never overwrite each other's
   * decision). False when either changed: read again and decide again.
   */
  async setSchedule(
    id: string,
    expected: { version: number; next: BillingEntry | null },
    change: { next: BillingEntry | null; last?: BillingEntry },
  ): Promise<boolean> {
    const res = await this.models.subscriptions.updateOne(
      {
        _id: id,
        version: expected.version,
        next_billing_at: expected.next?.at ?? null,
        next_billing_reason: expected.next?.reason ?? null,
      },
      {
        $set: {
          next_billing_at: change.next?.at ?? null,
          next_billing_reason: change.next?.reason ?? null,
          ...(change.last ? { last_billed_at: change.last.at, last_billed_reason: change.last.reason } : {}),
        },
      },
    );
    return res.modifiedCount === 1;
  }

  /** Subscriptions whose next billing has come, in scope (natural query, index next_billing_at). */
  async dueSubscriptions(now: Date, limit: number | null, scope: DueScope = {}): Promise<SubscriptionCopy[]> {
    // ordered by instant, then customer: a batch cut splits at most its last customer's group
    const query = this.models.subscriptions
      .find({ next_billing_at: { $lte: now }, ...scopeFilter(scope) })
      .sort({ next_billing_at: 1, customer_id: 1, _id: 1 });
    const docs = await (limit === null ? query : query.limit(limit)).lean<SubscriptionDoc[]>();
    // the test server may answer a document changed after it matched (a replica moved its schedule): keep what is due
    return docs.map(subscriptionOf).filter((c) => c.next_billing_at !== null && c.next_billing_at <= now);
  }

  /** A customer's active subscriptions (by customer: an index on real MongoDB, a scan on the test server). */
  async activeOfCustomer(organizationId: string, customerId: string): Promise<SubscriptionCopy[]> {
    const docs = await this.models.subscriptions
      .find({ organization_id: organizationId, customer_id: customerId, "subscription.status": "active" })
      .lean<SubscriptionDoc[]>();
    return docs.map(subscriptionOf);
  }

  async nextBillingAfter(organizationId: string, after: Date): Promise<Date | null> {
    const doc = await this.models.subscriptions
      .findOne({ organization_id: organizationId, next_billing_at: { $gt: after } }, { next_billing_at: 1 })
      .sort({ next_billing_at: 1 })
      .lean<{ next_billing_at: Date }>();
    return doc?.next_billing_at ?? null;
  }

  /** Every copy of an external id (a subscription and the ones that replaced it or that it replaced). */
  async subscriptionsOf(organizationId: string, externalId: string): Promise<SubscriptionCopy[]> {
    const docs = await this.models.subscriptions
      .find({ organization_id: organizationId, "subscription.external_id": externalId })
      .lean<SubscriptionDoc[]>();
    return docs.map(subscriptionOf);
  }

  /** The first start of any subscription with this external id (upgrades don't restart a trial). */
  async initialStartedAt(organizationId: string, externalId: string): Promise<Date | null> {
    const docs = await this.models.subscriptions
      .find(
        { organization_id: organizationId, "subscription.external_id": externalId },
        { "subscription.started_at": 1 },
      )
      .lean<Array<{ subscription: { started_at: string | null } }>>();
    const starts = docs
      .map((d) => d.subscription.started_at)
      .filter((s): s is string => !!s)
      .map((s) => Date.parse(s));
    return starts.length ? new Date(Math.min(...starts)) : null;
  }

  /** Subscription copies by id, one `_id` read for them all (the pay-in-advance fees of a batch). */
  async subscriptionsByIds(ids: readonly string[]): Promise<SubscriptionCopy[]> {
    if (ids.length === 0) return [];
    const docs = await this.models.subscriptions.find({ _id: { $in: [...ids] } }).lean<SubscriptionDoc[]>();
    return docs.map(subscriptionOf);
  }

  /** Customer copies by id, one `_id` read for them all (the pay-in-advance fees of a batch). */
  async customersByIds(ids: readonly string[]): Promise<CustomerCopy[]> {
    if (ids.length === 0) return [];
    const docs = await this.models.customers.find({ _id: { $in: [...ids] } }).lean<CustomerDoc[]>();
    return docs.map(customerOf);
  }

  async customer(id: string): Promise<CustomerCopy | null> {
    const doc = await this.models.customers.findById(id).lean<CustomerDoc>();
    return doc ? customerOf(doc) : null;
  }

  /** The organization's customer of that external id (keyed read); null when unknown or deleted. */
  async customerByExternalId(organizationId: string, externalId: string): Promise<CustomerCopy | null> {
    const doc = await this.models.customerKeys.findById(`${organizationId}|${externalId}`).lean<CustomerKeyDoc>();
    return doc && !doc.customer.deleted_at
      ? { id: doc.customer_id, organization_id: organizationId, customer: doc.customer, version: doc.version }
      : null;
  }

  async putCustomer(copy: CustomerCopy): Promise<boolean> {
    const { id, ...fields } = copy;
    const stored = await this.putNewer(() =>
      this.models.customers.collection.updateOne(
        { _id: id, version: { $lt: copy.version } },
        { $set: { ...fields, external_id: copy.customer.external_id } },
        { upsert: true },
      ),
    );
    await this.putNewer(() =>
      this.models.customerKeys.collection.updateOne(
        { _id: `${copy.organization_id}|${copy.customer.external_id}`, version: { $lt: copy.version } },
        { $set: { customer_id: id, customer: copy.customer, version: copy.version } },
        { upsert: true },
      ),
    );
    return stored;
  }

  /** Notes that a customer's due billing waits for its copy. */
  async markWaiting(organizationId: string, customerId: string): Promise<void> {
    await this.models.waiting.collection.updateOne(
      { _id: `${organizationId}|${customerId}` },
      { $set: { at: 1 } },
      { upsert: true },
    );
  }

  /** True (once) when a customer's billing was waiting for its copy. */
  async takeWaiting(organizationId: string, customerId: string): Promise<boolean> {
    const res = await this.models.waiting.collection.deleteOne({ _id: `${organizationId}|${customerId}` });
    return res.deletedCount === 1;
  }

  /**
   * Points current_usage's key (organization, external subscription id) at the newest copy of that
   * external id. A copy with usage thresholds marks its organization as billing progressively
   * first (ProgressiveRepository.billsProgressively): whoever reads the key then finds the mark.
   */
  async putUsageKey(copy: SubscriptionFields): Promise<void> {
    const s = copy.subscription;
    if ((copy.plan.usage_thresholds ?? []).length > 0) await this.progressive.mark(copy.organization_id, new Date());
    await this.putNewer(() =>
      this.models.usageKeys.collection.updateOne(
        { _id: `${copy.organization_id}|${s.external_id}`, version: { $lt: copy.version } },
        {
          $set: {
            subscription_id: copy.id,
            customer_id: s.svc_customer_id,
            external_customer_id: s.external_customer_id,
            subscription: s,
            plan: copy.plan,
            version: copy.version,
          },
        },
        { upsert: true },
      ),
    );
  }

  /** The newest subscription copy of an external id (keyed read: current usage). */
  async usageKey(
    organizationId: string,
    externalSubscriptionId: string,
  ): Promise<(SubscriptionFields & { external_customer_id: string }) | null> {
    const doc = await this.models.usageKeys.findById(`${organizationId}|${externalSubscriptionId}`).lean<UsageKeyDoc>();
    return doc
      ? {
          id: doc.subscription_id,
          organization_id: organizationId,
          subscription: doc.subscription,
          plan: doc.plan,
          sandbox: false,
          version: doc.version,
          external_customer_id: doc.external_customer_id,
        }
      : null;
  }

  /**
   * Runs an upsert of a copy under its `_id` guarded by `version: {$lt: version}` (a raw, `_id`-keyed
   * write: fast on the test server); false when a version at least as new is stored.
   */
  private async putNewer(
    upsert: () => Promise<Pick<mongo.UpdateResult, "modifiedCount" | "upsertedCount">>,
  ): Promise<boolean> {
    try {
      const res = await upsert();
      return res.modifiedCount + res.upsertedCount > 0;
    } catch (err) {
      if (isDuplicateKeyError(err)) return false; // a version at least as new is stored
      throw err;
    }
  }
}
