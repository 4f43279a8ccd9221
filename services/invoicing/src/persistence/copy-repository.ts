import { isDuplicateKeyError } from "@billing/mongo";
import type { CustomerCopy, SubscriptionCopy } from "../domain/copies";
import type { Models } from "./models";

/** Whose due work a pass takes: every ordinary organization's (default), or one sandbox organization's. */
export interface DueScope {
  organizationId?: string;
}
export const scopeFilter = (scope: DueScope) => (scope.organizationId ? { organization_id: scope.organizationId } : { sandbox: { $ne: true } });

type SubscriptionDoc = Omit<SubscriptionCopy, "id"> & { _id: string };
const subscriptionOf = ({ _id, ...rest }: SubscriptionDoc): SubscriptionCopy => ({ ...rest, id: _id });

/** The read copies: a newer version replaces an older one; an older or equal one changes nothing. */
export class CopyRepository {
  constructor(private readonly models: Models) {}

  async subscription(id: string): Promise<SubscriptionCopy | null> {
    const doc = await this.models.subscriptions.findById(id).lean<SubscriptionDoc>();
    return doc ? subscriptionOf(doc) : null;
  }

  /** Stores the copy if it is newer than the stored one (keyed by _id: fast on the test server too). */
  async putSubscription(copy: SubscriptionCopy): Promise<boolean> {
    const { id, ...fields } = copy;
    try {
      const res = await this.models.subscriptions.updateOne({ _id: id, version: { $lt: copy.version } }, { $set: fields }, { upsert: true });
      return res.modifiedCount + res.upsertedCount > 0;
    } catch (err) {
      if (isDuplicateKeyError(err)) return false; // a newer version is stored
      throw err;
    }
  }

  /** Moves a subscription's next billing instant forward, only from the one it was billed at. */
  async moveNextBilling(id: string, from: Date, to: Date | null): Promise<boolean> {
    const res = await this.models.subscriptions.updateOne({ _id: id, next_billing_at: from }, { $set: { next_billing_at: to } });
    return res.modifiedCount === 1;
  }

  async setNextBilling(id: string, to: Date | null): Promise<void> {
    await this.models.subscriptions.updateOne({ _id: id }, { $set: { next_billing_at: to } });
  }

  /** Subscriptions whose periodic invoice is due (natural query, index next_billing_at). */
  async dueSubscriptions(now: Date, limit: number, scope: DueScope = {}): Promise<SubscriptionCopy[]> {
    const docs = await this.models.subscriptions.find({ next_billing_at: { $lte: now }, ...scopeFilter(scope) })
      .sort({ next_billing_at: 1 }).limit(limit).lean<SubscriptionDoc[]>();
    return docs.map(subscriptionOf);
  }

  async nextBillingAfter(organizationId: string, after: Date): Promise<Date | null> {
    const doc = await this.models.subscriptions.findOne({ organization_id: organizationId, next_billing_at: { $gt: after } }, { next_billing_at: 1 })
      .sort({ next_billing_at: 1 }).lean<{ next_billing_at: Date }>();
    return doc?.next_billing_at ?? null;
  }

  async subscriptionsOf(organizationId: string, externalId: string): Promise<SubscriptionCopy[]> {
    const docs = await this.models.subscriptions.find({ organization_id: organizationId, "subscription.external_id": externalId }).lean<SubscriptionDoc[]>();
    return docs.map(subscriptionOf).sort((a, b) => b.version - a.version);
  }

  async customer(id: string): Promise<CustomerCopy | null> {
    const doc = await this.models.customers.findById(id).lean<Omit<CustomerCopy, "id"> & { _id: string }>();
    return doc ? { ...doc, id: doc._id } : null;
  }

  async customerByExternalId(organizationId: string, externalId: string): Promise<CustomerCopy | null> {
    const docs = await this.models.customers.find({ organization_id: organizationId, external_id: externalId })
      .sort({ version: -1 }).limit(1).lean<Array<Omit<CustomerCopy, "id"> & { _id: string }>>();
    const doc = docs[0];
    return doc && !doc.customer.deleted_at ? { ...doc, id: doc._id } : null;
  }

  async putCustomer(copy: CustomerCopy): Promise<boolean> {
    const { id, ...fields } = copy;
    try {
      const res = await this.models.customers.updateOne(
        { _id: id, version: { $lt: copy.version } },
        { $set: { ...fields, external_id: copy.customer.external_id } },
        { upsert: true },
      );
      return res.modifiedCount + res.upsertedCount > 0;
    } catch (err) {
      if (isDuplicateKeyError(err)) return false;
      throw err;
    }
  }
}
