import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@billing/errors";
import type { SentPrivilegeValue } from "../src/domain/feature";
import { createBillableMetric } from "../src/use-cases/billable-metrics/create-billable-metric";
import { deletePlanEntitlement } from "../src/use-cases/entitlements/delete-plan-entitlement";
import { deletePlanEntitlementPrivilege } from "../src/use-cases/entitlements/delete-plan-entitlement-privilege";
import { getPlanEntitlement } from "../src/use-cases/entitlements/get-plan-entitlement";
import { listPlanEntitlements } from "../src/use-cases/entitlements/list-plan-entitlements";
import { listSubscriptionEntitlements } from "../src/use-cases/entitlements/list-subscription-entitlements";
import { updatePlanEntitlements, type EntitlementInput } from "../src/use-cases/entitlements/update-plan-entitlements";
import { createFeature } from "../src/use-cases/features/create-feature";
import { deleteFeature } from "../src/use-cases/features/delete-feature";
import { deleteFeaturePrivilege } from "../src/use-cases/features/delete-feature-privilege";
import { createPlan } from "../src/use-cases/plans/create-plan";
import { getPlan } from "../src/use-cases/plans/get-plan";
import { createSubscription } from "../src/use-cases/subscriptions/create-subscription";
import { getSubscription } from "../src/use-cases/subscriptions/get-subscription";
import { startHarness, type Harness } from "./harness";

let h: Harness;
beforeAll(async () => (h = await startHarness("catalog_entitlements")));
afterAll(() => h.close());

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable(),
    (err: AppError) => err,
  );

/** { seats: { max: 10 } } → the use case's input. */
const sent = (entitlements: Record<string, Record<string, SentPrivilegeValue>>): EntitlementInput[] =>
  Object.entries(entitlements).map(([feature_code, values]) => ({
    feature_code,
    privileges: Object.entries(values).map(([privilege_code, value]) => ({ privilege_code, value })),
  }));

/** An organization with a plan "basic", a feature "seats" (max integer, root boolean, provider select) and "storage" (tier string). */
async function catalog() {
  const org = h.org();
  const metric = await createBillableMetric(h.deps, org, {
    name: "Calls",
    code: "calls",
    aggregation_type: "count_agg",
  });
  await createPlan(h.deps, org, {
    patch: {
      name: "Basic",
      code: "basic",
      interval: "monthly",
      amount_cents: 1000,
      amount_currency: "EUR",
      pay_in_advance: false,
    },
    charges: [{ billable_metric_id: metric.id, charge_model: "standard", properties: { amount: "1" } }],
  });
  await createFeature(h.deps, org, {
    code: "seats",
    name: "Seats",
    privileges: [
      { code: "max", name: "Maximum", value_type: "integer" },
      { code: "root", value_type: "boolean" },
      { code: "provider", value_type: "select", config: { select_options: ["google", "okta"] } },
    ],
  });
  await createFeature(h.deps, org, { code: "storage", description: "Disk", privileges: [{ code: "tier" }] });
  return org;
}

const values = (e: { privileges: { code: string; value: unknown }[] }) =>
  Object.fromEntries(e.privileges.map((p) => [p.code, p.value]));

describe("plan entitlements against MongoDB", () => {
  it("grants features with values typed by their privileges and shows them on the plan", async () => {
    const org = await catalog();
    const result = await updatePlanEntitlements(
      h.deps,
      org,
      "basic",
      sent({ seats: { max: "10", root: "true", provider: "okta" }, storage: {} }),
      "replace",
    );
    expect(result).toEqual([
      {
        code: "seats",
        name: "Seats",
        description: null,
        privileges: [
          { code: "max", name: "Maximum", value_type: "integer", config: {}, value: 10 },
          { code: "root", name: null, value_type: "boolean", config: {}, value: true },
          {
            code: "provider",
            name: null,
            value_type: "select",
            config: { select_options: ["google", "okta"] },
            value: "okta",
          },
        ],
      },
      { code: "storage", name: null, description: "Disk", privileges: [] },
    ]);
    expect(await listPlanEntitlements(h.deps, org, "basic")).toEqual(result);
    expect((await getPlan(h.deps, org, "basic")).entitlements).toEqual(result);
    expect(await getPlanEntitlement(h.deps, org, "basic", "storage")).toEqual(result[1]);
  });

  it("POST replaces everything, PATCH adds and changes only what is sent", async () => {
    const org = await catalog();
    await updatePlanEntitlements(h.deps, org, "basic", sent({ seats: { max: 10, root: false } }), "replace");
    const patched = await updatePlanEntitlements(
      h.deps,
      org,
      "basic",
      sent({ seats: { max: 20, provider: "google" }, storage: { tier: "gold" } }),
      "merge",
    );
    expect(patched.map(values)).toEqual([{ max: 20, root: false, provider: "google" }, { tier: "gold" }]);
    const replaced = await updatePlanEntitlements(h.deps, org, "basic", sent({ seats: { root: true } }), "replace");
    expect(replaced.map(values)).toEqual([{ root: true }]);
    expect(await updatePlanEntitlements(h.deps, org, "basic", [], "replace")).toEqual([]);
  });

  it("refuses unknown plans, features, privileges and ill-typed values, storing nothing", async () => {
    const org = await catalog();
    await updatePlanEntitlements(h.deps, org, "basic", sent({ seats: { max: 5 } }), "replace");
    const refused = async (input: Record<string, Record<string, SentPrivilegeValue>>, plan = "basic") => {
      const err = await failure(updatePlanEntitlements(h.deps, org, plan, sent(input), "replace"));
      return err.code === "validation_errors" ? err.details : err.code;
    };
    expect(await refused({ seats: { max: 1 } }, "nope")).toBe("plan_not_found");
    expect(await refused({ storage: {}, nope: {} })).toBe("feature_not_found");
    expect(await refused({ seats: { nope: 1 } })).toBe("privilege_not_found");
    expect(await refused({ seats: { max: "ten", root: "yes", provider: "azure" } })).toEqual({
      max_privilege_value: ["value_is_invalid"],
      root_privilege_value: ["value_is_invalid"],
      provider_privilege_value: ["value_not_in_select_options"],
    });
    expect(await refused({ seats: { max: 1.5 } })).toEqual({ max_privilege_value: ["value_is_invalid"] });
    expect(await refused({ storage: { tier: 3 } })).toEqual({ tier_privilege_value: ["value_is_invalid"] });
    expect(await refused({ storage: { tier: null } })).toEqual({ "privilege.value": ["value_is_mandatory"] });
    expect((await listPlanEntitlements(h.deps, org, "basic")).map(values)).toEqual([{ max: 5 }]);
  });

  it("removes an entitlement or one privilege value from a plan, the feature untouched", async () => {
    const org = await catalog();
    await updatePlanEntitlements(
      h.deps,
      org,
      "basic",
      sent({ seats: { max: 10, root: true }, storage: { tier: "gold" } }),
      "replace",
    );
    const trimmed = await deletePlanEntitlementPrivilege(h.deps, org, "basic", "seats", "root");
    expect(values(trimmed)).toEqual({ max: 10 });
    expect((await failure(deletePlanEntitlementPrivilege(h.deps, org, "basic", "seats", "root"))).code).toBe(
      "privilege_not_found",
    );
    const removed = await deletePlanEntitlement(h.deps, org, "basic", "storage");
    expect([removed.code, values(removed)]).toEqual(["storage", { tier: "gold" }]);
    expect((await failure(deletePlanEntitlement(h.deps, org, "basic", "storage"))).code).toBe("entitlement_not_found");
    expect((await failure(getPlanEntitlement(h.deps, org, "basic", "storage"))).code).toBe("entitlement_not_found");
    expect((await listPlanEntitlements(h.deps, org, "basic")).map((e) => e.code)).toEqual(["seats"]);
  });

  it("a deleted feature or privilege disappears from every plan", async () => {
    const org = await catalog();
    await createPlan(h.deps, org, {
      patch: {
        name: "Pro",
        code: "pro",
        interval: "monthly",
        amount_cents: 5000,
        amount_currency: "EUR",
        pay_in_advance: false,
      },
    });
    for (const plan of ["basic", "pro"]) {
      await updatePlanEntitlements(
        h.deps,
        org,
        plan,
        sent({ seats: { max: 10, root: true }, storage: { tier: "gold" } }),
        "replace",
      );
    }
    await deleteFeature(h.deps, org, "storage");
    await deleteFeaturePrivilege(h.deps, org, "seats", "root");
    for (const plan of ["basic", "pro"]) {
      expect((await getPlan(h.deps, org, plan)).entitlements.map((e) => [e.code, values(e)])).toEqual([
        ["seats", { max: 10 }],
      ]);
    }
    const stored = await h.connection.collection("plan_entitlements").find({ organization_id: org }).toArray();
    expect(stored.map((d) => d.entitlements.length)).toEqual([1, 1]);
    expect(stored.map((d) => d.entitlements[0].values.length)).toEqual([1, 1]);
    // A new feature of the same code starts with no plans.
    await createFeature(h.deps, org, { code: "storage", privileges: [{ code: "tier" }] });
    expect((await listPlanEntitlements(h.deps, org, "pro")).map((e) => e.code)).toEqual(["seats"]);
  });

  it("shows a subscription the entitlements of its plan (the public plan for plan overrides)", async () => {
    const org = await catalog();
    await updatePlanEntitlements(h.deps, org, "basic", sent({ seats: { max: 10 } }), "replace");
    await createSubscription(h.deps, org, { external_customer_id: "cus_1", plan_code: "basic", external_id: "sub_1" });
    await createSubscription(h.deps, org, {
      external_customer_id: "cus_2",
      plan_code: "basic",
      external_id: "sub_2",
      plan_overrides: { patch: { amount_cents: 500 } },
    });
    for (const external of ["sub_1", "sub_2"]) {
      expect((await listSubscriptionEntitlements(h.deps, org, external)).map(values)).toEqual([{ max: 10 }]);
      expect((await getSubscription(h.deps, org, external)).plan.entitlements.map((e) => e.code)).toEqual(["seats"]);
    }
    expect((await failure(listSubscriptionEntitlements(h.deps, org, "nope"))).code).toBe("subscription_not_found");
    expect((await failure(listSubscriptionEntitlements(h.deps, org, "sub_1", "terminated"))).code).toBe(
      "subscription_not_found",
    );
  });

  it("loses no value when several PATCHes run at once", async () => {
    const org = await catalog();
    await Promise.all([
      updatePlanEntitlements(h.deps, org, "basic", sent({ seats: { max: 1 } }), "merge"),
      updatePlanEntitlements(h.deps, org, "basic", sent({ seats: { root: true } }), "merge"),
      updatePlanEntitlements(h.deps, org, "basic", sent({ seats: { provider: "okta" } }), "merge"),
      updatePlanEntitlements(h.deps, org, "basic", sent({ storage: { tier: "gold" } }), "merge"),
    ]);
    const byCode = Object.fromEntries(
      (await listPlanEntitlements(h.deps, org, "basic")).map((e) => [e.code, values(e)]),
    );
    expect(byCode).toEqual({ seats: { max: 1, root: true, provider: "okta" }, storage: { tier: "gold" } });
  });

  it("keeps organizations apart", async () => {
    const org = await catalog();
    await updatePlanEntitlements(h.deps, org, "basic", sent({ seats: { max: 10 } }), "replace");
    const other = await catalog();
    expect(await listPlanEntitlements(h.deps, other, "basic")).toEqual([]);
    expect(
      (await failure(updatePlanEntitlements(h.deps, h.org(), "basic", sent({ seats: { max: 1 } }), "merge"))).code,
    ).toBe("plan_not_found");
    expect((await failure(getPlanEntitlement(h.deps, other, "basic", "seats"))).code).toBe("entitlement_not_found");
  });
});
