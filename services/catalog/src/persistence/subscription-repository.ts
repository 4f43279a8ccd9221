import type { Envelope } from "@billing/bus";
import { embeddedOutboxStore, skipOf, type DocModel, type Filter, type PageRequest } from "@billing/mongo";
import { slotOf, type Subscription, type SubscriptionStatus } from "../domain/subscription";
import { insertWithEvent, replaceWithEvent } from "./outbox-writes";
import type { SubscriptionDoc as Doc } from "./subscription-model";

/** What a write can run into besides success: another current subscription holds the slot, or the record changed meanwhile. */
export type SubscriptionWrite = "ok" | "slot_taken" | "lost_race";

export interface SubscriptionFilter {
  externalCustomerId?: string;
  planCode?: string;
  statuses: SubscriptionStatus[];
}

const toDomain = ({ _id, slot: _slot, outbox: _outbox, ...rest }: Doc): Subscription => ({ ...rest, id: _id });
const toDoc = ({ id, ...rest }: Subscription): Doc => ({ ...rest, _id: id, slot: slotOf({ id, ...rest }) });
const NO_OUTBOX = { outbox: 0 } as const;

/** Whose due work a pass takes: every ordinary organization's (default), or one sandbox organization's. */
export interface DueScope {
  organizationId?: string;
}
const scopeFilter = (scope: DueScope): Filter<Doc> =>
  scope.organizationId ? { organization_id: scope.organizationId } : { sandbox: { $ne: true } };

/** Every subscription query is scoped to an organization, except the scheduler's due lists. */
export class SubscriptionRepository {
  constructor(private readonly model: DocModel<Doc>) {}

  readonly outbox = () => embeddedOutboxStore(this.model);

  async findById(organizationId: string, id: string): Promise<Subscription | null> {
    const doc = await this.model.findOne({ organization_id: organizationId, _id: id }, NO_OUTBOX).lean<Doc>();
    return doc ? toDomain(doc) : null;
  }

  /** The newest subscription of that external id in one of those states (listed by preference). */
  async findByExternalId(
    organizationId: string,
    externalId: string,
    statuses: SubscriptionStatus[],
  ): Promise<Subscription | null> {
    const docs = await this.model
      .find({ organization_id: organizationId, external_id: externalId, status: { $in: statuses } }, NO_OUTBOX)
      .sort({ created_at: -1, _id: -1 })
      .lean<Doc[]>();
    const found = statuses.map((status) => docs.find((d) => d.status === status)).find(Boolean);
    return found ? toDomain(found) : null;
  }

  /** Newest first, `_id` as tiebreaker. */
  async list(
    organizationId: string,
    filter: SubscriptionFilter,
    page: PageRequest,
  ): Promise<{ items: Subscription[]; total: number }> {
    const query: Filter<Doc> = { organization_id: organizationId, status: { $in: filter.statuses } };
    if (filter.externalCustomerId !== undefined) query.external_customer_id = filter.externalCustomerId;
    if (filter.planCode !== undefined) query.plan_code = filter.planCode;
    const [docs, total] = await Promise.all([
      this.model
        .find(query, NO_OUTBOX)
        .sort({ created_at: -1, _id: -1 })
        .skip(skipOf(page))
        .limit(page.perPage)
        .lean<Doc[]>(),
      this.model.countDocuments(query),
    ]);
    return { items: docs.map(toDomain), total };
  }

  /** Pending subscriptions whose activation time has come: every ordinary organization's, or one sandbox organization's. */
  async duePending(now: Date, limit: number, scope: DueScope = {}): Promise<Subscription[]> {
    const docs = await this.model
      .find({ status: "pending", activation_at: { $lte: now }, ...scopeFilter(scope) }, NO_OUTBOX)
      .sort({ activation_at: 1 })
      .limit(limit)
      .lean<Doc[]>();
    return docs.map(toDomain);
  }

  /** Active subscriptions whose ending_at has passed, in the same scope. */
  async dueEnding(now: Date, limit: number, scope: DueScope = {}): Promise<Subscription[]> {
    const docs = await this.model
      .find({ status: "active", ending_at: { $lte: now }, ...scopeFilter(scope) }, NO_OUTBOX)
      .sort({ ending_at: 1 })
      .limit(limit)
      .lean<Doc[]>();
    return docs.map(toDomain);
  }

  /** The organization's first activation or ending strictly after `after`, if any. */
  async nextDue(organizationId: string, after: Date): Promise<Date | null> {
    const [pending, ending] = await Promise.all([
      this.model
        .findOne(
          { organization_id: organizationId, status: "pending", activation_at: { $gt: after } },
          { activation_at: 1 },
        )
        .sort({ activation_at: 1 })
        .lean<{ activation_at: Date }>(),
      this.model
        .findOne({ organization_id: organizationId, status: "active", ending_at: { $gt: after } }, { ending_at: 1 })
        .sort({ ending_at: 1 })
        .lean<{ ending_at: Date }>(),
    ]);
    const times = [pending?.activation_at, ending?.ending_at].filter((d): d is Date => d instanceof Date);
    return times.length ? new Date(Math.min(...times.map((d) => d.getTime()))) : null;
  }

  async insert(subscription: Subscription, event?: Envelope): Promise<SubscriptionWrite> {
    return (await insertWithEvent(this.model.collection, toDoc(subscription), event)) === "duplicate"
      ? "slot_taken"
      : "ok";
  }

  /** Replaces a subscription if nobody changed it since `expectedUpdatedAt`. */
  async replace(subscription: Subscription, expectedUpdatedAt: Date, event?: Envelope): Promise<SubscriptionWrite> {
    const outcome = await replaceWithEvent(this.model.collection, toDoc(subscription), expectedUpdatedAt, event);
    return outcome === "duplicate" ? "slot_taken" : outcome;
  }
}
