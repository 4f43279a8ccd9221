import type { ApiKey } from "../domain/api-key";
import type { BillingEntity, Organization } from "../domain/types";
import {
  toApiKey as apiKeyOf,
  toBillingEntity,
  toOrganization,
  type ApiKeyDoc,
  type BillingEntityDoc,
  type Models,
  type OrganizationDoc,
} from "./models";

/** Owns organizations, their hashed API keys and their billing entities. */
export class OrganizationRepository {
  constructor(private readonly models: Models) {}

  async create(organization: Organization, key: ApiKey, keyHash: string, entity: BillingEntity): Promise<void> {
    const { id, ...org } = organization;
    // Entity and key first: an organization is only visible once it can be used.
    const { id: entityId, ...entityFields } = entity;
    await this.models.billingEntities.collection.insertOne({ _id: entityId, ...entityFields });
    await this.addApiKey(key, keyHash);
    await this.models.organizations.collection.insertOne({ _id: id, ...org });
  }

  /** Stores a key: its hash and what is listed, never the key itself. */
  async addApiKey(key: ApiKey, keyHash: string): Promise<void> {
    const { id, ...fields } = key;
    await this.models.apiKeys.collection.insertOne({ _id: id, ...fields, key_hash: keyHash });
  }

  /** The key of that hash, live or revoked (by the unique `key_hash` index). */
  async findApiKeyByHash(keyHash: string): Promise<ApiKey | null> {
    const doc = await this.models.apiKeys.findOne({ key_hash: keyHash }).lean<ApiKeyDoc>();
    return doc ? apiKeyOf(doc) : null;
  }

  /** The organization of a live key of that hash. */
  async findByKeyHash(keyHash: string): Promise<Organization | null> {
    const key = await this.findApiKeyByHash(keyHash);
    if (!key || key.revoked_at) return null;
    return this.findById(key.organization_id);
  }

  /** Notes a key's use (keyed by `_id`). */
  async touchApiKey(id: string, now: Date): Promise<void> {
    await this.models.apiKeys.updateOne({ _id: id }, { $set: { last_used_at: now } });
  }

  /** An organization's keys, live and revoked, oldest first. */
  async listApiKeys(organizationId: string): Promise<ApiKey[]> {
    const docs = await this.models.apiKeys
      .find({ organization_id: organizationId })
      .sort({ created_at: 1, _id: 1 })
      .lean<ApiKeyDoc[]>();
    return docs.map(apiKeyOf);
  }

  /** One key of the organization (another organization's key is not found). */
  async findApiKey(organizationId: string, id: string): Promise<ApiKey | null> {
    const doc = await this.models.apiKeys.findOne({ _id: id, organization_id: organizationId }).lean<ApiKeyDoc>();
    return doc ? apiKeyOf(doc) : null;
  }

  /** Revokes a live key of the organization with one conditional update; null when there is no such live key. */
  async revokeApiKey(organizationId: string, id: string, now: Date): Promise<ApiKey | null> {
    const doc = await this.models.apiKeys
      .findOneAndUpdate(
        { _id: id, organization_id: organizationId, revoked_at: null },
        { $set: { revoked_at: now } },
        { new: true },
      )
      .lean<ApiKeyDoc>();
    return doc ? apiKeyOf(doc) : null;
  }

  async findById(id: string): Promise<Organization | null> {
    const doc = await this.models.organizations.findById(id).lean<OrganizationDoc>();
    return doc ? toOrganization(doc) : null;
  }

  /** ready → advancing towards `to`, only from a time before it; null when the clock is not in that state. */
  async beginAdvance(id: string, to: Date): Promise<Organization | null> {
    const doc = await this.models.organizations
      .findOneAndUpdate(
        { _id: id, "test_clock.status": "ready", "test_clock.frozen_time": { $lt: to } },
        { $set: { "test_clock.status": "advancing", "test_clock.target": to } },
        { new: true },
      )
      .lean<OrganizationDoc>();
    return doc ? toOrganization(doc) : null;
  }

  /** One step of an advance: from `from` (the time every service has run up to) to `to`. */
  async stepTestClock(id: string, from: Date, to: Date): Promise<boolean> {
    const result = await this.models.organizations.updateOne(
      { _id: id, "test_clock.status": "advancing", "test_clock.frozen_time": from },
      { $set: { "test_clock.frozen_time": to } },
    );
    return result.modifiedCount === 1;
  }

  /** The advance has reached its target: ready again. */
  async finishAdvance(id: string, target: Date): Promise<void> {
    await this.models.organizations.updateOne(
      { _id: id, "test_clock.status": "advancing", "test_clock.frozen_time": target },
      { $set: { "test_clock.status": "ready", "test_clock.target": null } },
    );
  }

  /** Organizations whose clock is advancing (a stop interrupted them, or another replica drives them). */
  async listAdvancing(): Promise<Organization[]> {
    const docs = await this.models.organizations.find({ "test_clock.status": "advancing" }).lean<OrganizationDoc[]>();
    return docs.map(toOrganization);
  }

  async findBillingEntity(organizationId: string, code: string): Promise<BillingEntity | null> {
    const doc = await this.models.billingEntities
      .findOne({ organization_id: organizationId, code })
      .lean<BillingEntityDoc>();
    return doc ? toBillingEntity(doc) : null;
  }

  /** Writes an entity's settings (keyed by `_id`; the organization and code never change). */
  async saveBillingEntity(entity: BillingEntity): Promise<void> {
    const { id, organization_id: _org, code: _code, created_at: _created, ...fields } = entity;
    await this.models.billingEntities.collection.updateOne({ _id: id }, { $set: fields });
  }

  async defaultBillingEntity(organizationId: string): Promise<BillingEntity | null> {
    const doc = await this.models.billingEntities
      .findOne({ organization_id: organizationId, is_default: true })
      .lean<BillingEntityDoc>();
    return doc ? toBillingEntity(doc) : null;
  }

  async listBillingEntities(organizationId: string): Promise<BillingEntity[]> {
    const docs = await this.models.billingEntities
      .find({ organization_id: organizationId })
      .sort({ created_at: 1, _id: 1 })
      .lean<BillingEntityDoc[]>();
    return docs.map(toBillingEntity);
  }
}
