import { describe, expect, it } from "vitest";
import { billedTiming, boundaryAfter, isUpgradeTermination, nextBilling } from "./billing-schedule";
import { copyFixture } from "./test-fixtures";

const at = (iso: string) => new Date(iso);
const entry = (
  iso: string,
  reason: "subscription_starting" | "subscription_periodic" | "subscription_terminating",
) => ({ at: at(iso), reason });

describe("a subscription's billing schedule", () => {
  it("first bills an arrears plan at the end of its first period, in the customer's zone", () => {
    expect(nextBilling(copyFixture(), null)).toEqual(entry("2024-02-01T00:00:00.000Z", "subscription_periodic"));
    const ny = copyFixture({ timezone: "America/New_York" });
    expect(nextBilling(ny, null)).toEqual(entry("2024-02-01T05:00:00.000Z", "subscription_periodic"));
  });

  it("starts a pay-in-advance plan with a starting invoice, at the end of its trial when it has one", () => {
    expect(nextBilling(copyFixture({}, { pay_in_advance: true }), null)).toEqual(
      entry("2024-01-15T09:00:00.000Z", "subscription_starting"),
    );
    expect(nextBilling(copyFixture({}, { pay_in_advance: true, trial_period: 10 }), null)).toEqual(
      entry("2024-01-25T09:00:00.000Z", "subscription_starting"),
    );
    // an upgrade does not restart the trial: it counts from the first start of the external id
    const upgraded = copyFixture(
      { started_at: "2024-01-20T00:00:00.000Z" },
      { pay_in_advance: true, trial_period: 10 },
    );
    expect(nextBilling(upgraded, null, at("2024-01-15T09:00:00.000Z"))).toEqual(
      entry("2024-01-25T09:00:00.000Z", "subscription_starting"),
    );
  });

  it("then bills each boundary: anniversary periods clamp to short months without drifting", () => {
    const copy = copyFixture({
      billing_time: "anniversary",
      subscription_at: "2024-01-31T10:00:00.000Z",
      started_at: "2024-01-31T10:00:00.000Z",
    });
    const first = nextBilling(copy, null)!;
    expect(first).toEqual(entry("2024-02-29T00:00:00.000Z", "subscription_periodic"));
    const second = nextBilling(copy, first)!;
    expect(second.at.toISOString()).toBe("2024-03-31T00:00:00.000Z");
  });

  it("bills a yearly plan with monthly charges every month", () => {
    const copy = copyFixture(
      { started_at: "2024-01-01T00:00:00.000Z", subscription_at: "2024-01-01T00:00:00.000Z" },
      { interval: "yearly", bill_charges_monthly: true },
    );
    expect(nextBilling(copy, null)!.at.toISOString()).toBe("2024-02-01T00:00:00.000Z");
    expect(boundaryAfter(copyFixture({}, { interval: "yearly" }), at("2024-03-10T00:00:00Z")).toISOString()).toBe(
      "2025-01-01T00:00:00.000Z",
    );
  });

  it("replaces the next boundary by the termination invoice when the termination comes first", () => {
    const terminated = copyFixture({ status: "terminated", terminated_at: "2024-01-20T12:00:00.000Z" });
    expect(nextBilling(terminated, null)).toEqual(entry("2024-01-20T12:00:00.000Z", "subscription_terminating"));
    // billed up to a boundary before it: the boundaries before the termination are billed first
    const later = copyFixture({ status: "terminated", terminated_at: "2024-03-10T00:00:00.000Z" });
    expect(nextBilling(later, null)).toEqual(entry("2024-02-01T00:00:00.000Z", "subscription_periodic"));
    expect(nextBilling(later, entry("2024-03-01T00:00:00.000Z", "subscription_periodic"))).toEqual(
      entry("2024-03-10T00:00:00.000Z", "subscription_terminating"),
    );
    expect(nextBilling(later, entry("2024-03-10T00:00:00.000Z", "subscription_terminating"))).toBeNull();
  });

  it("bills nothing more for a termination with on_termination_invoice skip, or one billed past already", () => {
    expect(
      nextBilling(
        copyFixture({
          status: "terminated",
          terminated_at: "2024-01-20T00:00:00.000Z",
          on_termination_invoice: "skip",
        }),
        null,
      ),
    ).toBeNull();
    const late = copyFixture({ status: "terminated", terminated_at: "2024-01-20T00:00:00.000Z" });
    expect(nextBilling(late, entry("2024-02-01T00:00:00.000Z", "subscription_periodic"))).toBeNull();
  });

  it("schedules nothing for a pending or canceled subscription", () => {
    expect(nextBilling(copyFixture({ status: "pending", started_at: null }), null)).toBeNull();
    expect(nextBilling(copyFixture({ status: "canceled" }), null)).toBeNull();
  });

  it("bills an upgraded subscription up to the day before the upgrade, a downgraded one to its period's end", () => {
    const upgrade = copyFixture({
      status: "terminated",
      terminated_at: "2024-01-20T15:00:00.000Z",
      next_plan_code: "pro",
    });
    expect(isUpgradeTermination(upgrade)).toBe(true);
    expect(new Date(billedTiming(upgrade).terminated_at!).toISOString()).toBe("2024-01-19T23:59:59.999Z");
    const downgrade = copyFixture({
      status: "terminated",
      terminated_at: "2024-01-31T23:59:59.999Z",
      next_plan_code: "basic",
    });
    expect(isUpgradeTermination(downgrade)).toBe(false);
    expect(billedTiming(downgrade).terminated_at).toBe("2024-01-31T23:59:59.999Z");
  });
});
