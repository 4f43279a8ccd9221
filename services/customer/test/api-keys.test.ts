import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashApiKey } from "../src/domain/api-key";
import { authenticateApiKey } from "../src/use-cases/organizations/authenticate-api-key";
import { createApiKey } from "../src/use-cases/organizations/create-api-key";
import { createOrganization } from "../src/use-cases/organizations/create-organization";
import { listApiKeys } from "../src/use-cases/organizations/list-api-keys";
import { revokeApiKey } from "../src/use-cases/organizations/revoke-api-key";
import { startCustomerHarness, type CustomerHarness } from "./harness";

let h: CustomerHarness;
beforeAll(async () => (h = await startCustomerHarness("customer_keys")));
afterAll(() => h.close());

describe("an organization's API keys", () => {
  it("creates several keys that each authenticate the organization, and lists them by prefix", async () => {
    const { organization, apiKey: first } = await createOrganization(h.deps, { name: "Keys" });
    h.clock.advance(1000);
    const second = await createApiKey(h.deps, { organizationId: organization.id, name: "ci" });
    expect(second.apiKey).not.toBe(first);
    expect(second.key).toMatchObject({
      organization_id: organization.id,
      name: "ci",
      prefix: second.apiKey.slice(0, 12),
      revoked_at: null,
    });
    expect((await authenticateApiKey(h.deps, first)).id).toBe(organization.id);
    expect((await authenticateApiKey(h.deps, second.apiKey)).id).toBe(organization.id);

    const listed = await listApiKeys(h.deps, organization.id);
    expect(listed.map((k) => [k.prefix, k.name])).toEqual([
      [first.slice(0, 12), null],
      [second.apiKey.slice(0, 12), "ci"],
    ]);
    expect(listed.map((k) => k.last_used_at)).toEqual([h.clock.now(), h.clock.now()]);
    // nothing listed reveals more than the prefix
    expect(JSON.stringify(listed)).not.toContain(second.apiKey);
    expect(JSON.stringify(listed)).not.toContain(hashApiKey(second.apiKey));
  });

  it("stores only hashes of the keys", async () => {
    const { organization, apiKey } = await createOrganization(h.deps, { name: "Hashed" });
    const { apiKey: added } = await createApiKey(h.deps, { organizationId: organization.id });
    const docs = await h.models.apiKeys.collection.find({ organization_id: organization.id }).toArray();
    expect(docs.map((d) => d.key_hash).sort()).toEqual([hashApiKey(apiKey), hashApiKey(added)].sort());
    const stored = JSON.stringify(docs);
    for (const key of [apiKey, added]) {
      expect(stored).not.toContain(key);
      expect(stored).toContain(key.slice(0, 12));
    }
  });

  it("revokes a key by prefix or id: refused from then on, still listed, the others keep working", async () => {
    const { organization, apiKey: original } = await createOrganization(h.deps, { name: "Revoke" });
    // one millisecond apart: the list is oldest first (keys made at one instant would tie)
    h.clock.advance(1);
    const a = await createApiKey(h.deps, { organizationId: organization.id });
    h.clock.advance(1);
    const b = await createApiKey(h.deps, { organizationId: organization.id });
    h.clock.advance(5000);

    const byPrefix = await revokeApiKey(h.deps, { organizationId: organization.id, prefix: a.key.prefix! });
    expect(byPrefix).toMatchObject({ alreadyRevoked: false, key: { id: a.key.id, revoked_at: h.clock.now() } });
    await expect(authenticateApiKey(h.deps, a.apiKey)).rejects.toMatchObject({ kind: "unauthenticated" });
    expect((await authenticateApiKey(h.deps, original)).id).toBe(organization.id);
    expect((await authenticateApiKey(h.deps, b.apiKey)).id).toBe(organization.id);

    const byId = await revokeApiKey(h.deps, { organizationId: organization.id, keyId: b.key.id });
    expect(byId.alreadyRevoked).toBe(false);
    await expect(authenticateApiKey(h.deps, b.apiKey)).rejects.toMatchObject({ kind: "unauthenticated" });
    expect((await revokeApiKey(h.deps, { organizationId: organization.id, keyId: b.key.id })).alreadyRevoked).toBe(
      true,
    );

    const listed = await listApiKeys(h.deps, organization.id);
    expect(listed.map((k) => k.revoked_at !== null)).toEqual([false, true, true]);
  });

  it("refuses a new organization whose given key was revoked, or is another's, saying so and storing nothing", async () => {
    const given = `sk_given_${randomUUID()}`;
    const { organization } = await createOrganization(h.deps, { name: "Given key", apiKey: given });
    const entities = () => h.models.billingEntities.collection.countDocuments({});
    const organizations = () => h.models.organizations.collection.countDocuments({});
    const before = { entities: await entities(), organizations: await organizations() };

    await expect(createOrganization(h.deps, { name: "Again", apiKey: given })).rejects.toMatchObject({
      kind: "unprocessable",
      details: { api_key: ["value_already_exist"] },
      message: `this API key already belongs to organization ${organization.id}`,
    });
    const [key] = await listApiKeys(h.deps, organization.id);
    await revokeApiKey(h.deps, { organizationId: organization.id, keyId: key!.id });
    const refusal = createOrganization(h.deps, { name: "Again", apiKey: given });
    await expect(refusal).rejects.toMatchObject({
      kind: "unprocessable",
      details: { api_key: ["value_already_revoked"] },
    });
    await expect(refusal).rejects.toThrow(/was revoked on .* a revoked key never works again/);
    expect({ entities: await entities(), organizations: await organizations() }).toEqual(before);
  });

  it("refuses a prefix that names several live keys", async () => {
    const orgId = await h.org("Ambiguous");
    await createApiKey(h.deps, { organizationId: orgId });
    await expect(revokeApiKey(h.deps, { organizationId: orgId, prefix: "sk_" })).rejects.toMatchObject({
      code: "api_key_prefix_ambiguous",
    });
    expect((await listApiKeys(h.deps, orgId)).every((k) => k.revoked_at === null)).toBe(true);
  });

  it("keeps organizations apart: one cannot list, revoke or add to another's keys", async () => {
    const mine = await createOrganization(h.deps, { name: "Mine" });
    const theirs = await createOrganization(h.deps, { name: "Theirs" });
    const theirKey = (await listApiKeys(h.deps, theirs.organization.id))[0]!;
    expect((await listApiKeys(h.deps, mine.organization.id)).map((k) => k.organization_id)).toEqual([
      mine.organization.id,
    ]);
    await expect(
      revokeApiKey(h.deps, { organizationId: mine.organization.id, keyId: theirKey.id }),
    ).rejects.toMatchObject({ code: "api_key_not_found" });
    await expect(
      revokeApiKey(h.deps, { organizationId: mine.organization.id, prefix: theirKey.prefix! }),
    ).rejects.toMatchObject({ code: "api_key_not_found" });
    expect((await authenticateApiKey(h.deps, theirs.apiKey)).id).toBe(theirs.organization.id);
    await expect(createApiKey(h.deps, { organizationId: "no-such-org" })).rejects.toMatchObject({
      code: "organization_not_found",
    });
    await expect(listApiKeys(h.deps, "no-such-org")).rejects.toMatchObject({ code: "organization_not_found" });
  });

  it("keeps a key stored before names, prefixes and revocation working: listed without prefix, revocable by id", async () => {
    const orgId = await h.org("Legacy");
    await h.models.apiKeys.collection.deleteMany({ organization_id: orgId });
    const legacyKey = "legacy-key-0123456789";
    // the document as the first version stored it
    await h.models.apiKeys.collection.insertOne({
      _id: "legacy-key-id",
      organization_id: orgId,
      key_hash: hashApiKey(legacyKey),
      created_at: new Date("2025-01-01T00:00:00Z"),
    });
    expect((await authenticateApiKey(h.deps, legacyKey)).id).toBe(orgId);
    const [listed] = await listApiKeys(h.deps, orgId);
    expect(listed).toMatchObject({
      id: "legacy-key-id",
      name: null,
      prefix: null,
      revoked_at: null,
      last_used_at: h.clock.now(),
    });
    await revokeApiKey(h.deps, { organizationId: orgId, keyId: "legacy-key-id" });
    await expect(authenticateApiKey(h.deps, legacyKey)).rejects.toMatchObject({ kind: "unauthenticated" });
  });

  it("writes last_used_at at most once a minute", async () => {
    const { organization, apiKey } = await createOrganization(h.deps, { name: "Used" });
    const firstUse = h.clock.now();
    await authenticateApiKey(h.deps, apiKey);
    h.clock.advance(30_000);
    await authenticateApiKey(h.deps, apiKey);
    expect((await listApiKeys(h.deps, organization.id))[0]!.last_used_at).toEqual(firstUse);
    h.clock.advance(30_000);
    await authenticateApiKey(h.deps, apiKey);
    expect((await listApiKeys(h.deps, organization.id))[0]!.last_used_at).toEqual(h.clock.now());
  });
});
