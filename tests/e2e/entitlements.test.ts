import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startE2E, type E2E } from "../support/platform";
import { api } from "../support/api";
import { openapiErrors } from "../support/openapi";

let e2e: E2E;
let asA: ReturnType<typeof api>;
let asB: ReturnType<typeof api>;

beforeAll(async () => {
  e2e = await startE2E("entitlements");
  asA = api(e2e.platform.baseUrl, (await e2e.organization("Acme Corp")).api_key);
  asB = api(e2e.platform.baseUrl, (await e2e.organization("Globex")).api_key);
});

afterAll(async () => {
  await e2e?.stop();
});

const unprocessable = (error_details: Record<string, string[]>) => ({
  status: 422,
  body: { status: 422, error: "Unprocessable Entity", code: "validation_errors", error_details },
});
const notFound = (resource: string) => ({
  status: 404,
  body: { status: 404, error: "Not Found", code: `${resource}_not_found` },
});

/** Answers 200 with a body valid against the named schema of Lago's OpenAPI document; returns the body. */
async function ok(schema: string, call: ReturnType<ReturnType<typeof api>>) {
  const { status, body } = await call;
  expect([status, openapiErrors(schema, body)]).toEqual([200, []]);
  return body;
}

const seats = {
  code: "seats",
  name: "Number of seats",
  description: "Users of the account",
  privileges: [
    { code: "max", name: "Maximum", value_type: "integer" },
    { code: "root", name: "Allow root user", value_type: "boolean" },
    { code: "provider", name: "SSO Provider", value_type: "select", config: { select_options: ["google", "okta"] } },
  ],
};
const plan = (code: string) =>
  asA("POST", "/plans", {
    plan: { name: code, code, interval: "monthly", amount_cents: 1000, amount_currency: "EUR", pay_in_advance: false },
  });
const valuesOf = (e: { privileges: { code: string; value: unknown }[] }) =>
  Object.fromEntries(e.privileges.map((p) => [p.code, p.value]));

describe("features end to end", () => {
  it("creates, reads, updates, lists and deletes features and privileges in Lago's shape", async () => {
    const created = await ok("Feature", asA("POST", "/features", { feature: seats }));
    expect(created.feature).toEqual({
      code: "seats",
      name: "Number of seats",
      description: "Users of the account",
      created_at: expect.any(String),
      privileges: [
        { code: "max", name: "Maximum", value_type: "integer", config: {} },
        { code: "root", name: "Allow root user", value_type: "boolean", config: {} },
        {
          code: "provider",
          name: "SSO Provider",
          value_type: "select",
          config: { select_options: ["google", "okta"] },
        },
      ],
    });
    expect(await asA("GET", "/features/seats")).toEqual({ status: 200, body: created });

    const updated = await ok(
      "Feature",
      asA("PUT", "/features/seats", {
        feature: {
          description: null,
          privileges: [
            { code: "provider", config: { select_options: ["azure"] } },
            { code: "admins", value_type: "integer" },
          ],
        },
      }),
    );
    expect(updated.feature).toMatchObject({ code: "seats", name: "Number of seats", description: null });
    expect(updated.feature.privileges.map((p: { code: string; config: unknown }) => [p.code, p.config])).toEqual([
      ["max", {}],
      ["root", {}],
      ["provider", { select_options: ["google", "okta", "azure"] }],
      ["admins", {}],
    ]);

    const trimmed = await ok("Feature", asA("DELETE", "/features/seats/privileges/admins"));
    expect(trimmed.feature.privileges.map((p: { code: string }) => p.code)).toEqual(["max", "root", "provider"]);
    expect(await asA("DELETE", "/features/seats/privileges/admins")).toEqual(notFound("privilege"));

    await ok("Feature", asA("POST", "/features", { feature: { code: "storage", name: "Storage" } }));
    const listed = await ok("FeaturesPaginated", asA("GET", "/features?per_page=1"));
    expect(listed.features.map((f: { code: string }) => f.code)).toEqual(["storage"]);
    expect(listed.meta).toEqual({ current_page: 1, next_page: 2, prev_page: null, total_pages: 2, total_count: 2 });
    const searched = await ok("FeaturesPaginated", asA("GET", "/features?search_term=USERS"));
    expect(searched.features.map((f: { code: string }) => f.code)).toEqual([]);
    expect(
      (await ok("FeaturesPaginated", asA("GET", "/features?search_term=SEAT"))).features.map(
        (f: { code: string }) => f.code,
      ),
    ).toEqual(["seats"]);

    const deleted = await ok("Feature", asA("DELETE", "/features/storage"));
    expect(deleted.feature.code).toBe("storage");
    expect(await asA("GET", "/features/storage")).toEqual(notFound("feature"));
    await ok("Feature", asA("POST", "/features", { feature: { code: "storage" } }));
  });

  it("answers 422, 404 and 400 as Lago does and stores nothing", async () => {
    await asA("POST", "/features", { feature: { code: "dup" } });
    expect(await asA("POST", "/features", { feature: { code: "dup" } })).toEqual(
      unprocessable({ code: ["value_already_exist"] }),
    );
    expect(await asA("POST", "/features", { feature: { name: "No code" } })).toEqual(
      unprocessable({ code: ["value_is_mandatory"] }),
    );
    expect(
      await asA("POST", "/features", { feature: { code: "x", privileges: [{ code: "p", value_type: "float" }] } }),
    ).toEqual(unprocessable({ "privilege.value_type": ["value_is_invalid"] }));
    expect(await asA("POST", "/features", { feature: { code: "x", privileges: [{ code: " " }] } })).toEqual(
      unprocessable({ "privilege.code": ["value_is_mandatory"] }),
    );
    expect(
      await asA("POST", "/features", { feature: { code: "x", privileges: [{ code: "p", value_type: "select" }] } }),
    ).toEqual(unprocessable({ "privilege.config": ["invalid_format"] }));
    expect(
      await asA("POST", "/features", { feature: { code: "x", privileges: [{ code: "p" }, { code: "p" }] } }),
    ).toEqual(unprocessable({ "privilege.code": ["value_is_duplicated"] }));
    expect(await asA("POST", "/features", { code: "x" })).toEqual({
      status: 400,
      body: { status: 400, error: "BadRequest: param is missing or the value is empty: feature" },
    });
    expect(await asA("GET", "/features/x")).toEqual(notFound("feature"));
    expect(await asA("PUT", "/features/x", { feature: { name: "x" } })).toEqual(notFound("feature"));
    expect(await asA("DELETE", "/features/x")).toEqual(notFound("feature"));
    expect(await asA("DELETE", "/features/x/privileges/p")).toEqual(notFound("feature"));
  });
});

describe("plan entitlements end to end", () => {
  it("grants features to a plan, shows them on the plan, patches, removes privileges and entitlements", async () => {
    await asA("POST", "/features", { feature: { ...seats, code: "users" } });
    await asA("POST", "/features", { feature: { code: "sso", name: "SSO", privileges: [{ code: "domain" }] } });
    expect((await plan("startup")).status).toBe(200);

    const granted = await ok(
      "PlanEntitlements",
      asA("POST", "/plans/startup/entitlements", {
        entitlements: { users: { max: 10, root: "true", provider: "okta" }, sso: {} },
      }),
    );
    expect(granted.entitlements).toEqual([
      {
        code: "users",
        name: "Number of seats",
        description: "Users of the account",
        privileges: [
          { code: "max", name: "Maximum", value_type: "integer", config: {}, value: 10 },
          { code: "root", name: "Allow root user", value_type: "boolean", config: {}, value: true },
          {
            code: "provider",
            name: "SSO Provider",
            value_type: "select",
            config: { select_options: ["google", "okta"] },
            value: "okta",
          },
        ],
      },
      { code: "sso", name: "SSO", description: null, privileges: [] },
    ]);
    expect(await ok("PlanEntitlements", asA("GET", "/plans/startup/entitlements"))).toEqual(granted);
    expect((await ok("PlanEntitlement", asA("GET", "/plans/startup/entitlements/sso"))).entitlement).toEqual(
      granted.entitlements[1],
    );

    const plan_ = await ok("Plan", asA("GET", "/plans/startup"));
    expect(plan_.plan.entitlements).toEqual(granted.entitlements.map((entitlement: unknown) => ({ entitlement })));

    const patched = await ok(
      "PlanEntitlements",
      asA("PATCH", "/plans/startup/entitlements", {
        entitlements: { users: { max: "25" }, sso: { domain: "acme.com" } },
      }),
    );
    expect(patched.entitlements.map(valuesOf)).toEqual([
      { max: 25, root: true, provider: "okta" },
      { domain: "acme.com" },
    ]);

    const withoutRoot = await ok("PlanEntitlement", asA("DELETE", "/plans/startup/entitlements/users/privileges/root"));
    expect(valuesOf(withoutRoot.entitlement)).toEqual({ max: 25, provider: "okta" });
    expect((await asA("GET", "/features/users")).body.feature.privileges.map((p: { code: string }) => p.code)).toEqual([
      "max",
      "root",
      "provider",
    ]);

    const removed = await ok("PlanEntitlement", asA("DELETE", "/plans/startup/entitlements/sso"));
    expect(removed.entitlement).toMatchObject({ code: "sso", privileges: [{ code: "domain", value: "acme.com" }] });
    expect(await asA("GET", "/plans/startup/entitlements/sso")).toEqual(notFound("entitlement"));

    const replaced = await ok(
      "PlanEntitlements",
      asA("POST", "/plans/startup/entitlements", { entitlements: { sso: { domain: "x.io" } } }),
    );
    expect(replaced.entitlements.map((e: { code: string }) => e.code)).toEqual(["sso"]);
  });

  it("answers 404 for unknown plans, features and privileges and 422 for ill-typed values, storing nothing", async () => {
    await asA("POST", "/features", { feature: { ...seats, code: "licences" } });
    expect((await plan("scale")).status).toBe(200);
    await ok("PlanEntitlements", asA("POST", "/plans/scale/entitlements", { entitlements: { licences: { max: 5 } } }));
    const post = (entitlements: unknown, code = "scale") =>
      asA("POST", `/plans/${code}/entitlements`, { entitlements });

    expect(await post({ licences: { max: 1 } }, "nope")).toEqual(notFound("plan"));
    expect(await post({ nope: { max: 1 } })).toEqual(notFound("feature"));
    expect(await post({ licences: { nope: 1 } })).toEqual(notFound("privilege"));
    expect(await post({ licences: { max: "ten", root: "maybe", provider: "azure" } })).toEqual(
      unprocessable({
        max_privilege_value: ["value_is_invalid"],
        root_privilege_value: ["value_is_invalid"],
        provider_privilege_value: ["value_not_in_select_options"],
      }),
    );
    expect(await asA("PATCH", "/plans/scale/entitlements", { entitlements: { licences: { max: [12, 13] } } })).toEqual(
      unprocessable({ max_privilege_value: ["value_is_invalid"] }),
    );
    expect(await post({ licences: "max" })).toEqual(unprocessable({ entitlements: ["value_is_invalid"] }));
    expect(await asA("POST", "/plans/scale/entitlements", { licences: {} })).toEqual({
      status: 400,
      body: { status: 400, error: "BadRequest: param is missing or the value is empty: entitlements" },
    });
    expect((await asA("GET", "/plans/scale/entitlements")).body.entitlements.map(valuesOf)).toEqual([{ max: 5 }]);

    expect(await asA("GET", "/plans/nope/entitlements")).toEqual(notFound("plan"));
    expect(await asA("GET", "/plans/scale/entitlements/nope")).toEqual(notFound("entitlement"));
    expect(await asA("DELETE", "/plans/scale/entitlements/nope")).toEqual(notFound("entitlement"));
    expect(await asA("DELETE", "/plans/scale/entitlements/licences/privileges/root")).toEqual(notFound("privilege"));
  });

  it("a deleted feature leaves every plan", async () => {
    await asA("POST", "/features", { feature: { code: "api", privileges: [{ code: "rate", value_type: "integer" }] } });
    for (const code of ["team", "enterprise"]) {
      expect((await plan(code)).status).toBe(200);
      await ok(
        "PlanEntitlements",
        asA("PATCH", `/plans/${code}/entitlements`, { entitlements: { api: { rate: 100 } } }),
      );
    }
    await ok("Feature", asA("DELETE", "/features/api"));
    for (const code of ["team", "enterprise"]) {
      expect((await ok("Plan", asA("GET", `/plans/${code}`))).plan.entitlements).toEqual([]);
      expect((await ok("PlanEntitlements", asA("GET", `/plans/${code}/entitlements`))).entitlements).toEqual([]);
    }
  });

  it("shows a subscription the entitlements of its plan", async () => {
    await asA("POST", "/features", {
      feature: { code: "projects", privileges: [{ code: "max", value_type: "integer" }] },
    });
    expect((await plan("solo")).status).toBe(200);
    await asA("POST", "/plans/solo/entitlements", { entitlements: { projects: { max: 3 } } });
    expect(
      (
        await asA("POST", "/subscriptions", {
          subscription: { external_customer_id: "cus_1", plan_code: "solo", external_id: "sub_1" },
        })
      ).status,
    ).toBe(200);

    const listed = await ok("SubscriptionEntitlements", asA("GET", "/subscriptions/sub_1/entitlements"));
    expect(listed.entitlements).toEqual([
      {
        code: "projects",
        name: null,
        description: null,
        overrides: {},
        privileges: [
          { code: "max", name: null, value_type: "integer", config: {}, value: 3, plan_value: 3, override_value: null },
        ],
      },
    ]);
    const subscription = await asA("GET", "/subscriptions/sub_1");
    expect(
      subscription.body.subscription.plan.entitlements.map(
        (e: { entitlement: { code: string } }) => e.entitlement.code,
      ),
    ).toEqual(["projects"]);
    expect(await asA("GET", "/subscriptions/nope/entitlements")).toEqual(notFound("subscription"));
    expect(await asA("GET", "/subscriptions/sub_1/entitlements?subscription_status=terminated")).toEqual(
      notFound("subscription"),
    );
  });
});

describe("organizations", () => {
  it("a second organization sees none of the first one's features or entitlements", async () => {
    const listed = await ok("FeaturesPaginated", asB("GET", "/features"));
    expect([listed.features, listed.meta.total_count]).toEqual([[], 0]);
    expect(await asB("GET", "/features/seats")).toEqual(notFound("feature"));
    expect(await asB("GET", "/plans/startup/entitlements")).toEqual(notFound("plan"));
    expect(await asB("GET", "/subscriptions/sub_1/entitlements")).toEqual(notFound("subscription"));
    expect(
      (
        await asB("POST", "/plans", {
          plan: {
            name: "s",
            code: "startup",
            interval: "monthly",
            amount_cents: 0,
            amount_currency: "EUR",
            pay_in_advance: false,
          },
        })
      ).status,
    ).toBe(200);
    expect(await asB("POST", "/plans/startup/entitlements", { entitlements: { seats: { max: 1 } } })).toEqual(
      notFound("feature"),
    );
    expect((await ok("PlanEntitlements", asB("GET", "/plans/startup/entitlements"))).entitlements).toEqual([]);
  });
});
