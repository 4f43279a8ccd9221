import { describe, expect, it } from "vitest";
import { advanceClock, scenarioPlatform } from "../../support/sandbox";
import { event, invoicesOf, metric, ok, plan, send, subscribe, type Api } from "../../support/scenario";

// Lago's `progressive_billing_disabled` (a subscription's, POST and PUT /subscriptions, default
// false): while set, the plan's usage thresholds do not apply to it (applicable_usage_thresholds
// empty, no progressive invoice, lifetime usage without thresholds). Plan of
// spec/scenarios/invoices/progressive_billing_spec.rb: 0.0002 per unit, a 2.00 threshold.
const platform = scenarioPlatform("scn_progressive_disabled");

async function use(as: Api, externalId: string, day: string, units: number): Promise<void> {
  await advanceClock(as, `${day}T00:00:00Z`);
  await send(as, [event(externalId, "compute", `${day}T00:00:00Z`, { total: units })]);
  await advanceClock(as, `${day}T12:00:00Z`);
}

describe("progressive_billing_disabled", () => {
  it("keeps a subscription out of progressive billing while set, and lets it in again once cleared", async () => {
    const as = await platform.story("Progressive billing disabled", "2024-01-01T00:00:00Z");
    const total = await metric(as, "compute", { aggregation_type: "sum_agg", field_name: "total" });
    await plan(as, "progressive", {
      amount_cents: 3_100,
      charges: [{ billable_metric_id: total, charge_model: "standard", properties: { amount: "0.0002" } }],
      usage_thresholds: [{ amount_cents: 200, threshold_display_name: "first" }],
    });
    const created = await subscribe(as, "acme", "progressive", "sub_1", { progressive_billing_disabled: true });
    expect(created).toMatchObject({ progressive_billing_disabled: true, applicable_usage_thresholds: [] });
    // absent: false, as in Lago
    const other = await subscribe(as, "acme", "progressive", "sub_2");
    expect(other.progressive_billing_disabled).toBe(false);
    expect(other.applicable_usage_thresholds).toEqual([expect.objectContaining({ amount_cents: 200 })]);
    const wrong = await as("POST", "/subscriptions", {
      subscription: {
        external_customer_id: "acme",
        plan_code: "progressive",
        external_id: "sub_3",
        progressive_billing_disabled: "yes",
      },
    });
    expect(wrong.status).toBe(422);

    // 11 000 units = 2.20 on each: only sub_2 is billed progressively
    await use(as, "sub_1", "2024-01-06", 11_000);
    await send(as, [event("sub_2", "compute", "2024-01-06T00:00:00Z", { total: 11_000 })]);
    await advanceClock(as, "2024-01-06T18:00:00Z");
    let progressive = (await invoicesOf(as, "acme")).filter((i) => i.invoice_type === "progressive_billing");
    expect(progressive.map((i) => [i.billing_periods[0].external_subscription_id, i.fees_amount_cents])).toEqual([
      ["sub_2", 220],
    ]);
    const lifetime = await ok(as("GET", "/subscriptions/sub_1/lifetime_usage"));
    expect(lifetime.lifetime_usage).toMatchObject({ current_usage_amount_cents: 220, usage_thresholds: [] });
    expect((await ok(as("GET", "/subscriptions/sub_1"))).subscription).toMatchObject({
      progressive_billing_disabled: true,
      applicable_usage_thresholds: [],
    });

    // cleared: the next check (here the clock's next step) finds the 2.20 already used past the 2.00 threshold
    const cleared = await ok(
      as("PUT", "/subscriptions/sub_1", { subscription: { progressive_billing_disabled: false } }),
    );
    expect(cleared.subscription).toMatchObject({
      progressive_billing_disabled: false,
      applicable_usage_thresholds: [expect.objectContaining({ amount_cents: 200 })],
    });
    await advanceClock(as, "2024-01-07T00:00:00Z");
    progressive = (await invoicesOf(as, "acme")).filter((i) => i.invoice_type === "progressive_billing");
    expect(
      progressive
        .map((i) => [i.billing_periods[0].external_subscription_id, i.fees_amount_cents, i.issuing_date])
        .sort(),
    ).toEqual([
      ["sub_1", 220, "2024-01-07"],
      ["sub_2", 220, "2024-01-06"],
    ]);
    expect((await ok(as("GET", "/subscriptions/sub_1/lifetime_usage"))).lifetime_usage.usage_thresholds).toEqual([
      expect.objectContaining({ amount_cents: 200, completion_ratio: 1 }),
    ]);
  });
});
