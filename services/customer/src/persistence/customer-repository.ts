import type { Envelope } from "@billing/bus";
import {
  embeddedOutboxStore,
  isDuplicateKeyError,
  skipOf,
  takeNextInSequence,
  type Filter,
  type PageRequest,
} from "@billing/mongo";
import type { Customer } from "../domain/types";
import { customerDocOf as toDoc, toCustomer as toDomain, type CustomerDoc, type Models } from "./models";

/** Owns the customers collection: every write carries its event in the same document update. */
export class CustomerRepository {
  constructor(private readonly models: Models) {}

  readonly outbox = () => embeddedOutboxStore(this.models.customers);

  async findLive(organizationId: string, externalId: string): Promise<Customer | null> {
    const doc = await this.models.customers
      .findOne({ organization_id: organizationId, live_key: externalId }, { outbox: 0 })
      .lean<CustomerDoc>();
    return doc ? toDomain(doc) : null;
  }

  async listLive(organizationId: string, page: PageRequest): Promise<{ items: Customer[]; total: number }> {
    const filter: Filter<CustomerDoc> = { organization_id: organizationId, deleted_at: null };
    const [docs, total] = await Promise.all([
      this.models.customers
        .find(filter, { outbox: 0 })
        .sort({ created_at: -1, _id: -1 })
        .skip(skipOf(page))
        .limit(page.perPage)
        .lean<CustomerDoc[]>(),
      this.models.customers.countDocuments(filter),
    ]);
    return { items: docs.map(toDomain), total };
  }

  /** Inserts a new customer with its event; false when another request created it first. */
  async insert(customer: Customer, event: Envelope): Promise<boolean> {
    try {
      await this.models.customers.collection.insertOne({ ...toDoc(customer), outbox: [event] });
      return true;
    } catch (err) {
      if (isDuplicateKeyError(err)) return false;
      throw err;
    }
  }

  /** Replaces a customer if nobody changed it since `expectedUpdatedAt`; false on a lost race. */
  async replace(customer: Customer, expectedUpdatedAt: Date, event: Envelope): Promise<boolean> {
    const { _id, ...fields } = toDoc(customer);
    const result = await this.models.customers.collection.updateOne(
      { _id, updated_at: expectedUpdatedAt },
      { $set: fields, $push: { outbox: event } },
    );
    return result.matchedCount === 1;
  }

  async nextSequentialId(organizationId: string): Promise<number> {
    return takeNextInSequence(this.models.counters, `${organizationId}:customers`);
  }
}
