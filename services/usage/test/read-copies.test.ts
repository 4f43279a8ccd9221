import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@billing/testkit";
import {
  chargeView,
  metricEvent,
  metricView,
  planEvent,
  planView,
  publish,
  startCopiesFixture,
  subscriptionEvent,
  subscriptionView,
  type CopiesFixture,
} from "./read-copies-fixtures";

let f: CopiesFixture;

beforeAll(async () => {
  // One message at a time, so "a later message was handled" means every earlier one was too.
  f = await startCopiesFixture("usage_copies", { concurrency: 1 });
});

afterAll(async () => {
  await f?.close();
});

/** Publishes a marker metric after the events and waits for it: everything before it was handled. */
async function settle(org: string): Promise<void> {
  const marker = metricView({ code: `marker_${randomUUID()}`, updated_at: new Date().toISOString() });
  await publish(f.bus, metricEvent("Created", org, marker));
  await waitFor(() => f.copies.metricByCode(org, marker.code), { what: "marker metric" });
  // and stored: memory may have it from this process's follower before the durable consumer stored it
  await waitFor(
    async () =>
      (await f.connection.collection("catalog_metric_copies").countDocuments({ _id: marker.svc_id as never })) === 1,
    { what: "stored marker" },
  );
}

describe("catalog read copies", () => {
  it("follow a billable metric's creation, update and deletion", async () => {
    const org = randomUUID();
    const created = metricView({
      code: "storage",
      aggregation_type: "sum_agg",
      field_name: "gb",
      updated_at: "2025-09-01T00:00:00.000Z",
    });
    await publish(f.bus, metricEvent("Created", org, created));
    await waitFor(() => f.copies.metricByCode(org, "storage"), { what: "metric copy" });
    expect(f.copies.metricByCode(org, "storage")).toMatchObject({
      svc_id: created.svc_id,
      organization_id: org,
      field_name: "gb",
    });

    await publish(
      f.bus,
      metricEvent("Updated", org, { ...created, name: "Storage GB", updated_at: "2025-09-02T00:00:00.000Z" }),
    );
    await waitFor(() => f.copies.metricByCode(org, "storage")?.name === "Storage GB", { what: "metric update" });

    const deletedAt = "2025-09-03T00:00:00.000Z";
    await publish(
      f.bus,
      metricEvent("Deleted", org, { ...created, name: "Storage GB", updated_at: deletedAt, deleted_at: deletedAt }),
    );
    await waitFor(() => f.copies.metricByCode(org, "storage") === null, { what: "metric deletion" });
    expect(f.copies.metricByCode(randomUUID(), "storage")).toBeNull();
  });

  it("never lets a late, older event overwrite a newer state", async () => {
    const org = randomUUID();
    const v1 = metricView({ code: "calls", name: "v1", updated_at: "2025-09-01T00:00:00.000Z" });
    const v2 = { ...v1, name: "v2", updated_at: "2025-09-02T00:00:00.000Z" };
    await publish(
      f.bus,
      metricEvent("Updated", org, v2),
      metricEvent("Created", org, v1),
      metricEvent("Updated", org, v2),
    );
    await settle(org);
    expect(f.copies.metricByCode(org, "calls")?.name).toBe("v2");
    const stored = await f.connection.collection("catalog_metric_copies").findOne({ _id: v1.svc_id as never });
    expect(JSON.parse(String(stored?.view_json)).name).toBe("v2");

    const gone = { ...v2, updated_at: "2025-09-03T00:00:00.000Z", deleted_at: "2025-09-03T00:00:00.000Z" };
    await publish(f.bus, metricEvent("Deleted", org, gone), metricEvent("Updated", org, v2));
    await settle(org);
    expect(f.copies.metricByCode(org, "calls")).toBeNull();
    // The code is free again: a new metric takes it.
    const reborn = metricView({ code: "calls", name: "reborn", updated_at: "2025-09-04T00:00:00.000Z" });
    await publish(f.bus, metricEvent("Created", org, reborn));
    await waitFor(() => f.copies.metricByCode(org, "calls")?.name === "reborn", { what: "new metric on a freed code" });
  });

  it("keep each subscription with the plan it is billed on, following plan updates", async () => {
    const org = randomUUID();
    const metric = metricView({ code: "seats", updated_at: "2025-09-01T00:00:00.000Z" });
    const plan = planView({ code: "pro", updated_at: "2025-09-01T00:00:00.000Z", charges: [chargeView(metric)] });
    const sub = subscriptionView(plan, { external_id: "sub_pro" });
    await publish(
      f.bus,
      metricEvent("Created", org, metric),
      subscriptionEvent("Started", org, sub, plan, new Date("2025-09-01T00:00:00Z")),
    );
    await waitFor(() => f.copies.activeSubscription(org, "sub_pro"), { what: "subscription copy" });
    expect(f.copies.activeSubscription(org, "sub_pro")).toMatchObject({
      organization_id: org,
      subscription: { svc_id: sub.svc_id, status: "active", timezone: "UTC", plan_id: plan.svc_id },
      plan: {
        code: "pro",
        charges: [{ charge_model: "standard", pay_in_advance: true, properties: { amount: "10" } }],
      },
    });

    // plan.updated reaches the subscription; a later subscription event carrying the older plan does not undo it.
    const newer = {
      ...plan,
      updated_at: "2025-09-05T00:00:00.000Z",
      charges: [chargeView(metric, { properties: { amount: "12" } })],
    };
    await publish(f.bus, planEvent("Updated", org, newer));
    await waitFor(() => f.copies.activeSubscription(org, "sub_pro")?.plan.charges[0]?.properties.amount === "12", {
      what: "plan update",
    });
    await publish(
      f.bus,
      subscriptionEvent("Updated", org, { ...sub, name: "renamed" }, plan, new Date("2025-09-06T00:00:00Z")),
    );
    await settle(org);
    expect(f.copies.activeSubscription(org, "sub_pro")?.plan.charges[0]?.properties.amount).toBe("12");

    // Terminated: no longer active, still listed; a late "started" does not revive it.
    const ended = { ...sub, status: "terminated", terminated_at: "2025-09-10T00:00:00.000Z" };
    await publish(f.bus, subscriptionEvent("Terminated", org, ended, newer, new Date("2025-09-10T00:00:00Z")));
    await publish(f.bus, subscriptionEvent("Started", org, sub, plan, new Date("2025-09-01T00:00:00Z")));
    await settle(org);
    expect(f.copies.activeSubscription(org, "sub_pro")).toBeNull();
    expect(f.copies.subscriptions(org, "sub_pro").map((c) => c.subscription.status)).toEqual(["terminated"]);
    // Another organization never sees it.
    expect(f.copies.subscriptions(randomUUID(), "sub_pro")).toEqual([]);
  });

  it("are reloaded from MongoDB on a restart", async () => {
    const org = randomUUID();
    const metric = metricView({
      code: "api",
      updated_at: "2025-09-01T00:00:00.000Z",
      filters: [{ key: "region.name", values: ["eu"] }],
    });
    const charge = chargeView(metric, {
      filters: [
        { invoice_display_name: null, properties: { amount: "2" }, values: { "region.name": ["eu"], $where: ["x"] } },
      ],
    });
    const plan = planView({ code: "api_plan", updated_at: "2025-09-01T00:00:00.000Z", charges: [charge] });
    const sub = subscriptionView(plan, { external_id: "sub_api" });
    await publish(
      f.bus,
      metricEvent("Created", org, metric),
      subscriptionEvent("Started", org, sub, plan, new Date("2025-09-01T00:00:00Z")),
    );
    await waitFor(() => f.copies.activeSubscription(org, "sub_api") && f.copies.metricByCode(org, "api"), {
      what: "copies",
    });
    // (memory may have them from this process's own follower before the durable consumer stored them)
    await waitFor(
      async () =>
        (await f.connection.collection("catalog_subscription_copies").countDocuments({ _id: sub.svc_id as never })) ===
        1,
      { what: "stored copy" },
    );

    await f.restart();
    // Straight after start-up, before any message: everything comes from MongoDB.
    expect(f.copies.metricByCode(org, "api")).toMatchObject({
      svc_id: metric.svc_id,
      filters: [{ key: "region.name", values: ["eu"] }],
    });
    expect(f.copies.activeSubscription(org, "sub_api")?.plan.charges[0]?.filters[0]?.values).toEqual({
      "region.name": ["eu"],
      $where: ["x"],
    });
    const stored = await f.connection.collection("catalog_subscription_copies").findOne({ _id: sub.svc_id as never });
    expect(stored).toMatchObject({ organization_id: org });
  });
});
