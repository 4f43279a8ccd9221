import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Envelope } from "@billing/bus";
import { AppError } from "@billing/errors";
import { collectEvents, waitFor } from "@billing/testkit";
import { createBillableMetric } from "../src/use-cases/billable-metrics/create-billable-metric";
import { createInvoiceCustomSection } from "../src/use-cases/invoice-custom-sections/create-invoice-custom-section";
import { deleteInvoiceCustomSection } from "../src/use-cases/invoice-custom-sections/delete-invoice-custom-section";
import { createPlan } from "../src/use-cases/plans/create-plan";
import { getPlan } from "../src/use-cases/plans/get-plan";
import { listPlans } from "../src/use-cases/plans/list-plans";
import { applyDueTransitions } from "../src/use-cases/subscriptions/apply-due-transitions";
import { createSubscription } from "../src/use-cases/subscriptions/create-subscription";
import { endSubscription } from "../src/use-cases/subscriptions/end-subscription";
import { terminateSubscription } from "../src/use-cases/subscriptions/terminate-subscription";
import { getSubscription } from "../src/use-cases/subscriptions/get-subscription";
import { listSubscriptions } from "../src/use-cases/subscriptions/list-subscriptions";
import { updateSubscription } from "../src/use-cases/subscriptions/update-subscription";
import { startHarness, type Harness } from "./harness";

let h: Harness;
beforeAll(async () => (h = await startHarness("catalog_subscriptions")));
afterAll(() => h.close());

const page = { page: 1, perPage: 100 };
const collect = (subject: string, org: string) => collectEvents<Envelope>(h.bus.nc, subject, org);
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable(),
    (err: AppError) => err,
  );

/** An organization with a metric and three monthly plans: basic 10 €, premium 50 €, starter 5 €. */
async function catalog() {
  const org = h.org();
  h.clock.set("2026-01-15T10:00:00Z");
  const metric = await createBillableMetric(h.deps, org, {
    name: "Calls",
    code: "calls",
    aggregation_type: "count_agg",
  });
  const plan = (code: string, amount_cents: number) =>
    createPlan(h.deps, org, {
      patch: { name: code, code, interval: "monthly", amount_cents, amount_currency: "EUR", pay_in_advance: false },
      charges: [{ billable_metric_id: metric.id, charge_model: "standard", properties: { amount: "0.5" } }],
      usageThresholds: [{ amount_cents: 10_000, threshold_display_name: "10k" }],
    });
  const [basic, premium, starter] = [
    await plan("basic", 1000),
    await plan("premium", 5000),
    await plan("starter", 500),
  ];
  return { org, metric, basic, premium, starter };
}

describe("subscriptions against MongoDB and NATS", () => {
  it("subscribes an unknown customer (created with the plan's currency) and announces the start with the plan", async () => {
    const { org } = await catalog();
    const started = collect("billing.catalog.subscription.started", org);
    const sub = await createSubscription(
      h.deps,
      org,
      { external_customer_id: "cus_new", plan_code: "basic", external_id: "sub_1", name: "Main" },
      "req-s",
    );
    expect(sub).toMatchObject({
      external_id: "sub_1",
      external_customer_id: "cus_new",
      plan_code: "basic",
      status: "active",
      billing_time: "calendar",
      name: "Main",
      started_at: "2026-01-15T10:00:00.000Z",
      subscription_at: "2026-01-15T10:00:00.000Z",
      // The first period starts on the day the subscription started.
      current_billing_period_started_at: "2026-01-15T00:00:00.000Z",
      current_billing_period_ending_at: "2026-01-31T23:59:59.999Z",
      plan_amount_cents: 1000,
      plan_amount_currency: "EUR",
      on_termination_invoice: "generate",
      on_termination_credit_note: null,
      plan: { code: "basic", amount_cents: 1000 },
      applicable_usage_thresholds: [{ amount_cents: 10_000, threshold_display_name: "10k", recurring: false }],
    });
    expect(await h.customers.find(org, "cus_new")).toMatchObject({ id: sub.svc_customer_id, currency: "EUR" });
    await waitFor(() => started.received.length === 1, { what: "subscription.started" });
    started.stop();
    expect(started.received[0]).toMatchObject({
      correlation_id: "req-s",
      data: {
        subscription: { svc_id: sub.svc_id, status: "active", timezone: "UTC" },
        plan: { code: "basic", charges: [{ billable_metric_code: "calls" }] },
      },
    });
    expect(await getSubscription(h.deps, org, "sub_1")).toEqual(sub);
  });

  it("computes anniversary periods and calendar periods in the customer's time zone", async () => {
    const { org } = await catalog();
    h.customers.add(org, "cus_ny", { currency: "EUR", timezone: "America/New_York" });
    const anniversary = await createSubscription(h.deps, org, {
      external_customer_id: "cus_new",
      plan_code: "basic",
      external_id: "sub_a",
      billing_time: "anniversary",
      subscription_at: "2025-11-10T08:00:00Z",
    });
    expect(anniversary).toMatchObject({
      current_billing_period_started_at: "2026-01-10T00:00:00.000Z",
      current_billing_period_ending_at: "2026-02-09T23:59:59.999Z",
    });
    const ny = await createSubscription(h.deps, org, {
      external_customer_id: "cus_ny",
      plan_code: "basic",
      external_id: "sub_ny",
      subscription_at: "2025-12-01T12:00:00Z",
    });
    expect(ny).toMatchObject({
      current_billing_period_started_at: "2026-01-01T05:00:00.000Z",
      current_billing_period_ending_at: "2026-02-01T04:59:59.999Z",
    });
  });

  it("keeps a future subscription pending and starts it once the clock passes subscription_at", async () => {
    const { org } = await catalog();
    const sub = await createSubscription(h.deps, org, {
      external_customer_id: "c",
      plan_code: "basic",
      external_id: "later",
      subscription_at: "2026-02-01T00:00:00Z",
    });
    expect(sub).toMatchObject({ status: "pending", started_at: null, current_billing_period_started_at: null });
    await expect(getSubscription(h.deps, org, "later")).rejects.toMatchObject({ code: "subscription_not_found" });
    expect(await getSubscription(h.deps, org, "later", "pending")).toMatchObject({ svc_id: sub.svc_id });
    const started = collect("billing.catalog.subscription.started", org);
    expect(await applyDueTransitions(h.deps)).toBe(0);
    h.clock.set("2026-02-01T00:00:01Z");
    expect(await applyDueTransitions(h.deps)).toBeGreaterThanOrEqual(1);
    expect(await getSubscription(h.deps, org, "later")).toMatchObject({
      status: "active",
      started_at: "2026-02-01T00:00:00.000Z",
    });
    await waitFor(
      () =>
        started.received.some(
          (e) => (e.data as { subscription: { external_id: string } }).subscription.external_id === "later",
        ),
      { what: "started" },
    );
    started.stop();
  });

  it("upgrades at once and downgrades at the end of the period", async () => {
    const { org } = await catalog();
    await createSubscription(h.deps, org, {
      external_customer_id: "c",
      plan_code: "basic",
      external_id: "s",
      subscription_at: "2025-12-20T00:00:00Z",
    });
    h.clock.set("2026-01-20T09:00:00Z");
    const upgraded = await createSubscription(h.deps, org, {
      external_customer_id: "c",
      plan_code: "premium",
      external_id: "s",
    });
    expect(upgraded).toMatchObject({
      plan_code: "premium",
      status: "active",
      previous_plan_code: "basic",
      started_at: "2026-01-20T09:00:00.000Z",
      subscription_at: "2025-12-20T00:00:00.000Z",
    });
    expect(await getSubscription(h.deps, org, "s", "terminated")).toMatchObject({
      plan_code: "basic",
      terminated_at: "2026-01-20T09:00:00.000Z",
    });

    const downgraded = await createSubscription(h.deps, org, {
      external_customer_id: "c",
      plan_code: "starter",
      external_id: "s",
    });
    expect(downgraded).toMatchObject({
      svc_id: upgraded.svc_id,
      plan_code: "premium",
      next_plan_code: "starter",
      downgrade_plan_date: "2026-02-01",
    });
    expect(await getSubscription(h.deps, org, "s", "pending")).toMatchObject({
      plan_code: "starter",
      previous_plan_code: "premium",
    });
    h.clock.set("2026-02-01T00:00:00Z");
    await applyDueTransitions(h.deps);
    expect(await getSubscription(h.deps, org, "s")).toMatchObject({
      plan_code: "starter",
      started_at: "2026-02-01T00:00:00.000Z",
    });
    const all = await listSubscriptions(h.deps, org, { statuses: ["terminated"] }, page);
    expect(all.items.map((s) => [s.plan_code, s.terminated_at])).toEqual([
      ["premium", "2026-01-31T23:59:59.999Z"],
      ["basic", "2026-01-20T09:00:00.000Z"],
    ]);
  });

  it("keeps a subscription's own invoice custom sections: shown live, announced as ids, not carried to an upgrade or a downgrade unless sent", async () => {
    const { org } = await catalog();
    for (const code of ["bank", "legal"])
      await createInvoiceCustomSection(h.deps, org, { name: code, code, details: `${code} text` });
    const updated = collect("billing.catalog.subscription.updated", org);
    const sub = await createSubscription(h.deps, org, {
      external_customer_id: "c",
      plan_code: "basic",
      external_id: "s",
      invoice_custom_section: { codes: ["bank", "legal", "unknown"] },
    });
    const codes = (v: { applied_invoice_custom_sections: Array<{ invoice_custom_section: { code: string } }> }) =>
      v.applied_invoice_custom_sections.map((a) => a.invoice_custom_section.code);
    expect(codes(sub)).toEqual(["bank", "legal"]);
    expect(sub.skip_invoice_custom_sections).toBe(false);
    // the same request again changes nothing (the same records); a deleted section is no longer shown
    const again = await updateSubscription(h.deps, org, "s", undefined, {
      invoice_custom_section: { codes: ["bank", "legal"] },
    });
    expect(again.applied_invoice_custom_sections).toEqual(sub.applied_invoice_custom_sections);
    await deleteInvoiceCustomSection(h.deps, org, "legal");
    expect(codes(await getSubscription(h.deps, org, "s"))).toEqual(["bank"]);
    expect(codes((await listSubscriptions(h.deps, org, { statuses: ["active"] }, page)).items[0]!)).toEqual(["bank"]);
    // events carry the choice as ids (invoicing reads the live sections when it bills)
    await waitFor(() => updated.received.length >= 1, { what: "subscription.updated" });
    updated.stop();
    expect(updated.received[0]!.data).toMatchObject({
      subscription: {
        skip_invoice_custom_sections: false,
        invoice_custom_section_ids: sub.applied_invoice_custom_sections.map((a) => a.invoice_custom_section_id),
      },
    });

    // an upgrade without a choice starts with none (Lago does not copy the old subscription's); with one, that one
    h.clock.set("2026-01-20T09:00:00Z");
    const upgraded = await createSubscription(h.deps, org, {
      external_customer_id: "c",
      plan_code: "premium",
      external_id: "s",
    });
    expect(upgraded.applied_invoice_custom_sections).toEqual([]);
    const downgraded = await createSubscription(h.deps, org, {
      external_customer_id: "c",
      plan_code: "starter",
      external_id: "s",
      invoice_custom_section: { skip: true },
    });
    expect(downgraded.skip_invoice_custom_sections).toBe(false); // the active one answers, unchanged
    expect(await getSubscription(h.deps, org, "s", "pending")).toMatchObject({
      plan_code: "starter",
      skip_invoice_custom_sections: true,
      applied_invoice_custom_sections: [],
    });
  });

  it("resumes an upgrade a crash interrupted between terminating the old subscription and storing the new one", async () => {
    const { org } = await catalog();
    const old = await createSubscription(h.deps, org, {
      external_customer_id: "c",
      plan_code: "basic",
      external_id: "r",
      subscription_at: "2025-12-20T00:00:00Z",
    });
    const stored = await h.deps.subscriptions.findById(org, old.svc_id);
    // What the first write of an upgrade leaves when the process dies before the second.
    await terminateSubscription(h.deps, stored!, {
      successor: { id: "11111111-2222-4333-8444-555555555555", plan_code: "premium" },
    });
    expect(await getSubscription(h.deps, org, "r", "terminated")).toMatchObject({ next_plan_code: "premium" });
    const retried = await createSubscription(h.deps, org, {
      external_customer_id: "c",
      plan_code: "premium",
      external_id: "r",
    });
    expect(retried).toMatchObject({
      svc_id: "11111111-2222-4333-8444-555555555555",
      status: "active",
      plan_code: "premium",
      previous_plan_code: "basic",
      subscription_at: "2025-12-20T00:00:00.000Z",
    });
    await expect(
      createSubscription(h.deps, org, { external_customer_id: "c", plan_code: "premium", external_id: "r" }),
    ).resolves.toMatchObject({ svc_id: retried.svc_id });
  });

  it("bills plan_overrides on a private copy and leaves the public plan untouched", async () => {
    const { org, basic } = await catalog();
    const sub = await createSubscription(h.deps, org, {
      external_customer_id: "c",
      plan_code: "basic",
      external_id: "custom",
      plan_overrides: {
        patch: { amount_cents: 777, name: "Basic for Acme" },
        charges: [{ id: basic.charges[0]!.svc_id, properties: { amount: "0.25" } }],
      },
    });
    expect(sub.plan).toMatchObject({
      code: "basic",
      name: "Basic for Acme",
      amount_cents: 777,
      charges: [{ properties: { amount: "0.25" } }],
    });
    expect(sub.plan.svc_id).not.toBe(basic.svc_id);
    expect(sub.plan_amount_cents).toBe(777);
    expect(await getPlan(h.deps, org, "basic")).toEqual(basic);
    expect((await listPlans(h.deps, org, page)).total).toBe(3);

    const again = await updateSubscription(h.deps, org, "custom", undefined, {
      plan_overrides: { patch: { amount_cents: 888 } },
    });
    expect(again.plan).toMatchObject({
      svc_id: sub.plan.svc_id,
      amount_cents: 888,
      charges: [{ properties: { amount: "0.25" } }],
    });
  });

  it("refuses bad requests with Lago's errors and stores nothing", async () => {
    const { org, basic } = await catalog();
    expect(
      await failure(
        createSubscription(h.deps, org, { external_customer_id: "c", plan_code: "nope", external_id: "x" }),
      ),
    ).toMatchObject({ code: "plan_not_found" });
    const bad = await failure(
      createSubscription(h.deps, org, {
        external_customer_id: "ghost",
        plan_code: "basic",
        external_id: "x",
        plan_overrides: { patch: {}, charges: [{ id: basic.charges[0]!.svc_id, properties: { amount: "-1" } }] },
      }),
    );
    expect(bad).toMatchObject({ kind: "unprocessable" });
    expect(Object.keys((bad as AppError).details!)[0]).toMatch(/^charges\.0\.properties/);
    expect(
      await failure(
        createSubscription(h.deps, org, {
          external_customer_id: "ghost",
          plan_code: "basic",
          external_id: "x",
          ending_at: "2020-01-01T00:00:00Z",
        }),
      ),
    ).toMatchObject({ details: { ending_at: ["invalid_date"] } });
    expect(await h.customers.find(org, "ghost")).toBeNull();
    expect((await listSubscriptions(h.deps, org, { statuses: ["active", "pending"] }, page)).total).toBe(0);

    h.customers.add(org, "usd", { currency: "USD" });
    expect(
      await failure(
        createSubscription(h.deps, org, { external_customer_id: "usd", plan_code: "basic", external_id: "x" }),
      ),
    ).toMatchObject({ details: { currency: ["currencies_does_not_match"] } });
    await createSubscription(h.deps, org, { external_customer_id: "a", plan_code: "basic", external_id: "taken" });
    expect(
      await failure(
        createSubscription(h.deps, org, { external_customer_id: "b", plan_code: "premium", external_id: "taken" }),
      ),
    ).toMatchObject({ details: { external_id: ["value_already_exist"] } });
  });

  it("terminates the active one, cancels the pending one, and ends at ending_at", async () => {
    const { org } = await catalog();
    const terminated = collect("billing.catalog.subscription.terminated", org);
    await createSubscription(h.deps, org, { external_customer_id: "c", plan_code: "basic", external_id: "t1" });
    expect(await endSubscription(h.deps, org, "t1", { on_termination_invoice: "skip" })).toMatchObject({
      status: "terminated",
      terminated_at: "2026-01-15T10:00:00.000Z",
      on_termination_invoice: "skip",
    });
    await expect(endSubscription(h.deps, org, "t1", {})).rejects.toMatchObject({ code: "subscription_not_found" });

    await createSubscription(h.deps, org, {
      external_customer_id: "c",
      plan_code: "basic",
      external_id: "p1",
      subscription_at: "2026-03-01T00:00:00Z",
    });
    expect(await endSubscription(h.deps, org, "p1", { status: "pending" })).toMatchObject({
      status: "canceled",
      canceled_at: "2026-01-15T10:00:00.000Z",
    });

    await createSubscription(h.deps, org, {
      external_customer_id: "c",
      plan_code: "basic",
      external_id: "e1",
      ending_at: "2026-01-20T00:00:00Z",
    });
    h.clock.set("2026-01-20T00:00:05Z");
    await applyDueTransitions(h.deps);
    expect(await getSubscription(h.deps, org, "e1", "terminated")).toMatchObject({
      terminated_at: "2026-01-20T00:00:00.000Z",
    });
    await waitFor(() => terminated.received.length === 2, { what: "two terminations" });
    terminated.stop();
  });

  it("updates by status, starts a pending one moved into the past, and keeps organizations apart", async () => {
    const { org } = await catalog();
    await createSubscription(h.deps, org, {
      external_customer_id: "c",
      plan_code: "basic",
      external_id: "u",
      subscription_at: "2026-05-01T00:00:00Z",
    });
    expect(await updateSubscription(h.deps, org, "u", "pending", { name: "Renamed" })).toMatchObject({
      status: "pending",
      name: "Renamed",
    });
    const moved = await updateSubscription(h.deps, org, "u", undefined, { subscription_at: "2026-01-02T00:00:00Z" });
    expect(moved).toMatchObject({ status: "active", started_at: "2026-01-02T00:00:00.000Z", name: "Renamed" });

    const other = h.org();
    await expect(getSubscription(h.deps, other, "u")).rejects.toMatchObject({ code: "subscription_not_found" });
    await expect(updateSubscription(h.deps, other, "u", undefined, { name: "x" })).rejects.toMatchObject({
      code: "subscription_not_found",
    });
    await expect(endSubscription(h.deps, other, "u", {})).rejects.toMatchObject({ code: "subscription_not_found" });
    expect((await listSubscriptions(h.deps, other, { statuses: ["active"] }, page)).total).toBe(0);
  });
});
