import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@billing/errors";
import { featureView } from "../src/domain/feature-view";
import { createFeature } from "../src/use-cases/features/create-feature";
import { deleteFeature } from "../src/use-cases/features/delete-feature";
import { deleteFeaturePrivilege } from "../src/use-cases/features/delete-feature-privilege";
import { getFeature } from "../src/use-cases/features/get-feature";
import { listFeatures } from "../src/use-cases/features/list-features";
import { updateFeature } from "../src/use-cases/features/update-feature";
import { startHarness, type Harness } from "./harness";

let h: Harness;
beforeAll(async () => (h = await startHarness("catalog_features")));
afterAll(() => h.close());

const page = { page: 1, perPage: 100 };
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable(),
    (err: AppError) => err,
  );

const seats = {
  code: "seats",
  name: "Number of seats",
  description: "Users of the account",
  privileges: [
    { code: "max", name: "Maximum", value_type: "integer" },
    { code: "root", value_type: "boolean" },
    { code: "provider", name: "SSO", value_type: "select", config: { select_options: ["google", "okta"] } },
  ],
};

describe("features against MongoDB", () => {
  it("creates a feature with typed privileges and reads it back", async () => {
    const org = h.org();
    const created = await createFeature(h.deps, org, seats);
    expect(featureView(created)).toMatchObject({
      code: "seats",
      name: "Number of seats",
      description: "Users of the account",
      privileges: [
        { code: "max", name: "Maximum", value_type: "integer", config: {} },
        { code: "root", name: null, value_type: "boolean", config: {} },
        { code: "provider", name: "SSO", value_type: "select", config: { select_options: ["google", "okta"] } },
      ],
    });
    expect(await getFeature(h.deps, org, "seats")).toEqual(created);
    const bare = await createFeature(h.deps, org, { code: "  sso  ", privileges: [{ code: "domain" }] });
    expect([bare.code, bare.name, bare.privileges[0]!.value_type]).toEqual(["sso", null, "string"]);
  });

  it("refuses bad features and privileges with Lago's field codes and stores nothing", async () => {
    const org = h.org();
    expect((await failure(createFeature(h.deps, org, { name: "x" }))).details).toEqual({
      code: ["value_is_mandatory"],
    });
    expect(
      (await failure(createFeature(h.deps, org, { code: "f", privileges: [{ code: "p", value_type: "float" }] })))
        .details,
    ).toEqual({
      "privilege.value_type": ["value_is_invalid"],
    });
    expect(
      (await failure(createFeature(h.deps, org, { code: "f", privileges: [{ code: "p", value_type: "select" }] })))
        .details,
    ).toEqual({
      "privilege.config": ["invalid_format"],
    });
    expect(
      (
        await failure(
          createFeature(h.deps, org, {
            code: "f",
            privileges: [{ code: "p", value_type: "integer", config: { select_options: ["a"] } }],
          }),
        )
      ).details,
    ).toEqual({
      "privilege.config": ["invalid_format"],
    });
    expect(
      (await failure(createFeature(h.deps, org, { code: "f", privileges: [{ code: "p" }, { code: "p" }] }))).details,
    ).toEqual({
      "privilege.code": ["value_is_duplicated"],
    });
    expect(
      (
        await failure(
          createFeature(h.deps, org, { code: "f", description: "d".repeat(601), privileges: [{ code: " " }] }),
        )
      ).details,
    ).toEqual({
      description: ["value_is_too_long"],
      "privilege.code": ["value_is_mandatory"],
    });
    expect(await h.models.features.countDocuments({ organization_id: org })).toBe(0);
  });

  it("keeps codes unique among live features and frees the code of a deleted one", async () => {
    const org = h.org();
    await createFeature(h.deps, org, seats);
    expect((await failure(createFeature(h.deps, org, { code: "seats" }))).details).toEqual({
      code: ["value_already_exist"],
    });
    const deleted = await deleteFeature(h.deps, org, "seats");
    expect(deleted.deleted_at).not.toBeNull();
    expect((await failure(getFeature(h.deps, org, "seats"))).code).toBe("feature_not_found");
    expect((await failure(deleteFeature(h.deps, org, "seats"))).code).toBe("feature_not_found");
    expect((await createFeature(h.deps, org, { code: "seats" })).privileges).toEqual([]);
  });

  it("updates name and description when sent, adds privileges, renames and extends existing ones", async () => {
    const org = h.org();
    await createFeature(h.deps, org, seats);
    const updated = await updateFeature(h.deps, org, "seats", {
      code: "ignored",
      description: null,
      privileges: [
        { code: "max", name: "Max seats", value_type: "string" },
        { code: "provider", config: { select_options: ["okta", "azure"] } },
        { code: "admins", value_type: "integer" },
      ],
    });
    expect(featureView(updated)).toMatchObject({
      code: "seats",
      name: "Number of seats",
      description: null,
      privileges: [
        { code: "max", name: "Max seats", value_type: "integer" },
        { code: "root" },
        { code: "provider", name: "SSO", config: { select_options: ["google", "okta", "azure"] } },
        { code: "admins", value_type: "integer" },
      ],
    });
    expect(
      (await failure(updateFeature(h.deps, org, "seats", { privileges: [{ code: "x", value_type: "nope" }] }))).details,
    ).toEqual({
      "privilege.value_type": ["value_is_invalid"],
    });
    expect((await failure(updateFeature(h.deps, org, "nope", { name: "x" }))).code).toBe("feature_not_found");
  });

  it("deletes a privilege, answering 404 for an unknown one", async () => {
    const org = h.org();
    await createFeature(h.deps, org, seats);
    const feature = await deleteFeaturePrivilege(h.deps, org, "seats", "root");
    expect(feature.privileges.map((p) => p.code)).toEqual(["max", "provider"]);
    expect((await failure(deleteFeaturePrivilege(h.deps, org, "seats", "root"))).code).toBe("privilege_not_found");
    expect((await failure(deleteFeaturePrivilege(h.deps, org, "nope", "max"))).code).toBe("feature_not_found");
  });

  it("lists newest first, searches name, code and description, and keeps organizations apart", async () => {
    const org = h.org();
    await createFeature(h.deps, org, seats);
    h.clock.advance(1000);
    await createFeature(h.deps, org, { code: "storage", name: "Storage (GB)" });
    h.clock.advance(1000);
    await createFeature(h.deps, org, { code: "sso", description: "Single sign-on" });
    await createFeature(h.deps, h.org(), { code: "other" });
    expect((await listFeatures(h.deps, org, page)).items.map((f) => f.code)).toEqual(["sso", "storage", "seats"]);
    expect((await listFeatures(h.deps, org, page, "STO")).items.map((f) => f.code)).toEqual(["storage"]);
    expect((await listFeatures(h.deps, org, page, "sign-on")).items.map((f) => f.code)).toEqual(["sso"]);
    expect((await listFeatures(h.deps, org, page, "(gb)")).total).toBe(1);
    expect((await listFeatures(h.deps, org, { page: 2, perPage: 2 })).items.map((f) => f.code)).toEqual(["seats"]);
    expect((await listFeatures(h.deps, h.org(), page)).total).toBe(0);
    expect((await failure(getFeature(h.deps, h.org(), "seats"))).code).toBe("feature_not_found");
  });
});
