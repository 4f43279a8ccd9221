import { duplicateIndexes, isDuplicateKeyError, skipOf, type Filter, type PageRequest } from "@billing/mongo";
import type { WebhookDelivery } from "../domain/webhook-delivery";
import type { WebhookEndpoint } from "../domain/webhook-endpoint";
import { newHmacKey, newRsaKeyPair } from "../domain/webhook-signing";
import {
  toDelivery as deliveryOf,
  toEndpoint as endpointOf,
  type DeliveryDoc,
  type EndpointDoc,
  type WebhookKeyDoc,
  type WebhookModels,
} from "./webhook-models";

/** An organization's RSA key pair for jwt signatures: `kid` names it in the tokens' header, `version` counts its rotations (1 when made). */
export interface RsaKeyPair {
  kid: string;
  privatePem: string;
  publicPem: string;
  version: number;
}
const rsaKeyPairOf = (doc: WebhookKeyDoc): RsaKeyPair => ({
  kid: doc.kid!,
  privatePem: doc.private_pem!,
  publicPem: doc.public_pem!,
  version: doc.version ?? 1,
});

/** A recorded attempt: succeeded, failed for good, or pending again at `next_attempt_at` (still leased by this process until `lease_until`). */
export interface AttemptOutcome {
  id: string;
  status: WebhookDelivery["status"];
  retries: number;
  http_status: number | null;
  response: string | null;
  at: Date;
  next_attempt_at: Date | null;
  lease_until: Date | null;
}

/** A delivery to store, held by `owner` until `leaseUntil` (no owner and a past lease: any replica's). */
export interface LeasedDelivery {
  delivery: WebhookDelivery;
  owner: string | null;
  leaseUntil: Date;
}

export interface DeliveryFilter {
  status?: string;
  endpointId?: string;
  webhookType?: string;
}

/** Webhook endpoints, deliveries and signing keys; every API query is scoped to one organization. */
export class WebhookRepository {
  constructor(private readonly models: WebhookModels) {}

  // --- endpoints

  /** "duplicate_url" when the organization already has this URL. */
  async insertEndpoint(endpoint: WebhookEndpoint): Promise<"ok" | "duplicate_url"> {
    const { id, ...rest } = endpoint;
    try {
      await this.models.endpoints.collection.insertOne({ _id: id, ...rest });
      return "ok";
    } catch (err) {
      if (isDuplicateKeyError(err)) return "duplicate_url";
      throw err;
    }
  }

  async replaceEndpoint(endpoint: WebhookEndpoint): Promise<"ok" | "duplicate_url" | "missing"> {
    const { id, ...rest } = endpoint;
    try {
      const r = await this.models.endpoints.replaceOne({ _id: id, organization_id: endpoint.organization_id }, rest);
      return r.matchedCount === 1 ? "ok" : "missing";
    } catch (err) {
      if (isDuplicateKeyError(err)) return "duplicate_url";
      throw err;
    }
  }

  async deleteEndpoint(organizationId: string, id: string): Promise<boolean> {
    return (await this.models.endpoints.deleteOne({ _id: id, organization_id: organizationId })).deletedCount === 1;
  }

  /** By id (an `_id` read), in its organization only. */
  async findEndpoint(organizationId: string, id: string): Promise<WebhookEndpoint | null> {
    const doc = await this.models.endpoints.findById(id).lean<EndpointDoc>();
    return doc && doc.organization_id === organizationId ? endpointOf(doc) : null;
  }

  async endpointById(id: string): Promise<WebhookEndpoint | null> {
    const doc = await this.models.endpoints.findById(id).lean<EndpointDoc>();
    return doc ? endpointOf(doc) : null;
  }

  /** Oldest first. */
  async listEndpoints(organizationId: string, page: PageRequest): Promise<{ items: WebhookEndpoint[]; total: number }> {
    const query = { organization_id: organizationId };
    const [docs, total] = await Promise.all([
      this.models.endpoints
        .find(query)
        .sort({ created_at: 1, _id: 1 })
        .skip(skipOf(page))
        .limit(page.perPage)
        .lean<EndpointDoc[]>(),
      this.models.endpoints.countDocuments(query),
    ]);
    return { items: docs.map(endpointOf), total };
  }

  async endpointsOf(organizationId: string): Promise<WebhookEndpoint[]> {
    return (
      await this.models.endpoints
        .find({ organization_id: organizationId })
        .sort({ created_at: 1, _id: 1 })
        .lean<EndpointDoc[]>()
    ).map(endpointOf);
  }

  async countEndpoints(organizationId: string): Promise<number> {
    return this.models.endpoints.countDocuments({ organization_id: organizationId });
  }

  // --- keys

  /** The organization's HMAC key, made on first use (two racing first uses agree on the one stored). */
  async hmacKey(organizationId: string): Promise<string> {
    return (await this.keyOnce(`hmac:${organizationId}`, async () => ({ hmac_key: newHmacKey() }))).hmac_key!;
  }

  /**
   * The organization's RSA key pair (PEM) for jwt signatures, made on first need and shared by
   * every replica (two racing first needs agree on the one stored).
   */
  async rsaKeyPair(organizationId: string): Promise<RsaKeyPair> {
    return rsaKeyPairOf(
      await this.keyOnce(`rsa:${organizationId}`, async () => ({ ...(await newRsaKeyPair()), version: 1 })),
    );
  }

  /**
   * Replaces the organization's RSA key pair by a new one (version + 1), made first if it had none.
   * One conditional write on the version read: of two rotations racing from the same version one
   * wins, and the other answers the winner's pair.
   */
  async rotateRsaKeyPair(organizationId: string): Promise<RsaKeyPair> {
    const current = await this.rsaKeyPair(organizationId);
    const next = await newRsaKeyPair();
    const id = `rsa:${organizationId}`;
    const rotated = await this.models.keys.updateOne(
      { _id: id, version: current.version },
      { $set: { ...next, version: current.version + 1, rotated_at: new Date() } },
    );
    if (rotated.matchedCount === 1)
      return { kid: next.kid, privatePem: next.private_pem, publicPem: next.public_pem, version: current.version + 1 };
    return rsaKeyPairOf((await this.models.keys.findById(id).lean<WebhookKeyDoc>())!);
  }

  private async keyOnce(
    id: string,
    make: () => Promise<Omit<WebhookKeyDoc, "_id" | "created_at">>,
  ): Promise<WebhookKeyDoc> {
    const found = await this.models.keys.findById(id).lean<WebhookKeyDoc>();
    if (found) return found;
    const doc: WebhookKeyDoc = { _id: id, ...(await make()), created_at: new Date() };
    try {
      await this.models.keys.create(doc);
      return doc;
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      return (await this.models.keys.findById(id).lean<WebhookKeyDoc>())!;
    }
  }

  // --- deliveries

  /** Stores new deliveries, each leased as given; answers the ids that were new (the others were stored by an earlier delivery of their event). */
  async insertDeliveries(entries: readonly LeasedDelivery[]): Promise<Set<string>> {
    if (entries.length === 0) return new Set();
    const docs = entries.map(({ delivery: { id, ...rest }, owner, leaseUntil }): DeliveryDoc => ({
      _id: id,
      ...rest,
      lease_owner: owner,
      lease_until: leaseUntil,
    }));
    try {
      await this.models.deliveries.collection.insertMany(docs, { ordered: false });
      return new Set(entries.map((e) => e.delivery.id));
    } catch (err) {
      const failed = duplicateIndexes(err);
      if (failed === null) throw err;
      const skipped = new Set(failed);
      return new Set(entries.filter((_, i) => !skipped.has(i)).map((e) => e.delivery.id));
    }
  }

  /** Attempts' outcomes, one bulk write; a delivery another process has taken over since is left to it. */
  async recordOutcomes(outcomes: AttemptOutcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    await this.models.deliveries.bulkWrite(
      outcomes.map((o) => ({
        updateOne: {
          filter: { _id: o.id, status: "pending" },
          update: {
            $set: {
              status: o.status,
              retries: o.retries,
              http_status: o.http_status,
              response: o.response,
              last_retried_at: o.at,
              updated_at: o.at,
              next_attempt_at: o.next_attempt_at,
              lease_until: o.lease_until,
            },
          },
        },
      })),
      { ordered: false },
    );
  }

  /**
   * Pending deliveries nobody holds (their lease has passed) and whose attempt is due, oldest
   * event first; only the first pending delivery of each object and endpoint is answered (the
   * later ones wait for it). Scans on the test server (see the model).
   */
  async dueUnleased(now: Date, limit: number): Promise<WebhookDelivery[]> {
    const fresh = await this.models.deliveries
      .find({ status: "pending", lease_until: { $lte: now } })
      .sort({ seq: 1 })
      .limit(limit)
      .lean<DeliveryDoc[]>();
    if (fresh.length === 0) return [];
    const keys = [...new Set(fresh.map((c) => c.order_key))];
    const heads = new Map<string, string>();
    for (const d of await this.models.deliveries
      .find({ order_key: { $in: keys }, status: "pending" }, { _id: 1, order_key: 1, seq: 1 })
      .sort({ seq: 1, created_at: 1 })
      .lean<DeliveryDoc[]>()) {
      if (!heads.has(d.order_key)) heads.set(d.order_key, d._id);
    }
    return fresh
      .filter((c) => heads.get(c.order_key) === c._id && (c.next_attempt_at === null || c.next_attempt_at <= now))
      .map(deliveryOf);
  }

  /** Takes a delivery whose lease has passed (false when another process took it first). */
  async claim(id: string, owner: string, now: Date, leaseUntil: Date): Promise<boolean> {
    const r = await this.models.deliveries.updateOne(
      { _id: id, status: "pending", lease_until: { $lte: now } },
      { $set: { lease_owner: owner, lease_until: leaseUntil } },
    );
    return r.modifiedCount === 1;
  }

  /** Extends the leases this process holds (never shortens one). */
  async renewLeases(ids: readonly string[], owner: string, until: Date): Promise<void> {
    for (let i = 0; i < ids.length; i += 500) {
      await this.models.deliveries.bulkWrite(
        ids.slice(i, i + 500).map((id) => ({
          updateOne: {
            filter: { _id: id, lease_owner: owner, status: "pending" },
            update: { $max: { lease_until: until } },
          },
        })),
        { ordered: false },
      );
    }
  }

  /** A replay asked for by the API: pending again, due now, leased to `owner`. */
  async reopen(
    organizationId: string,
    id: string,
    owner: string,
    now: Date,
    leaseUntil: Date,
  ): Promise<WebhookDelivery | null> {
    await this.models.deliveries.updateOne(
      { _id: id, organization_id: organizationId },
      {
        $set: { status: "pending", next_attempt_at: now, lease_owner: owner, lease_until: leaseUntil, updated_at: now },
      },
    );
    return this.findDelivery(organizationId, id);
  }

  async findDelivery(organizationId: string, id: string): Promise<WebhookDelivery | null> {
    const doc = await this.models.deliveries.findById(id).lean<DeliveryDoc>();
    return doc && doc.organization_id === organizationId ? deliveryOf(doc) : null;
  }

  /** Newest first. */
  async listDeliveries(
    organizationId: string,
    filter: DeliveryFilter,
    page: PageRequest,
  ): Promise<{ items: WebhookDelivery[]; total: number }> {
    const query: Filter<DeliveryDoc> = { organization_id: organizationId };
    // a client's value, as it came: one that is no status matches nothing
    if (filter.status !== undefined) query.status = filter.status as WebhookDelivery["status"];
    if (filter.endpointId !== undefined) query.endpoint_id = filter.endpointId;
    if (filter.webhookType !== undefined) query.webhook_type = filter.webhookType;
    const [docs, total] = await Promise.all([
      this.models.deliveries
        .find(query)
        .sort({ created_at: -1, _id: -1 })
        .skip(skipOf(page))
        .limit(page.perPage)
        .lean<DeliveryDoc[]>(),
      this.models.deliveries.countDocuments(query),
    ]);
    return { items: docs.map(deliveryOf), total };
  }
}
