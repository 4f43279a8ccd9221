import type { BillingEntity, Organization } from "../domain/types";
import type { Models } from "./models";

type WithMongoId<T extends { id: string }> = Omit<T, "id"> & { _id: string };

function fromDoc<T extends { id: string }>(doc: WithMongoId<T>): T {
  const { _id, ...rest } = doc;
  return { ...rest, id: _id } as unknown as T;
}

/** Owns organizations, their hashed API keys and their billing entities. */
export class OrganizationRepository {
  constructor(private readonly models: Models) {}

  async create(organization: Organization, keyHash: string, keyId: string, entity: BillingEntity): Promise<void> {
    const { id, ...org } = organization;
    // Entity and key first: an organization is only visible once it can be used.
    const { id: entityId, ...entityFields } = entity;
    await this.models.billingEntities.collection.insertOne({ _id: entityId, ...entityFields } as never);
    await this.models.apiKeys.collection.insertOne({ _id: keyId, organization_id: id, key_hash: keyHash, created_at: organization.created_at } as never);
    await this.models.organizations.collection.insertOne({ _id: id, ...org } as never);
  }

  async addApiKey(organizationId: string, keyId: string, keyHash: string, now: Date): Promise<void> {
    await this.models.apiKeys.collection.insertOne({ _id: keyId, organization_id: organizationId, key_hash: keyHash, created_at: now } as never);
  }

  async findByKeyHash(keyHash: string): Promise<Organization | null> {
    const key = await this.models.apiKeys.findOne({ key_hash: keyHash }).lean<{ organization_id: string }>();
    if (!key) return null;
    return this.findById(key.organization_id);
  }

  async findById(id: string): Promise<Organization | null> {
    const doc = await this.models.organizations.findById(id).lean<WithMongoId<Organization>>();
    return doc ? fromDoc(doc) : null;
  }

  async findBillingEntity(organizationId: string, code: string): Promise<BillingEntity | null> {
    const doc = await this.models.billingEntities.findOne({ organization_id: organizationId, code }).lean<WithMongoId<BillingEntity>>();
    return doc ? fromDoc(doc) : null;
  }

  async defaultBillingEntity(organizationId: string): Promise<BillingEntity | null> {
    const doc = await this.models.billingEntities
      .findOne({ organization_id: organizationId, is_default: true })
      .lean<WithMongoId<BillingEntity>>();
    return doc ? fromDoc(doc) : null;
  }

  async listBillingEntities(organizationId: string): Promise<BillingEntity[]> {
    const docs = await this.models.billingEntities
      .find({ organization_id: organizationId })
      .sort({ created_at: 1, _id: 1 })
      .lean<Array<WithMongoId<BillingEntity>>>();
    return docs.map((d) => fromDoc<BillingEntity>(d));
  }
}
