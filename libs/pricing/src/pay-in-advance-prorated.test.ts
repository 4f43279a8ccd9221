import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BillableMetric, UsageEvent } from "./aggregations/types";
import { type UsageCharge, computeChargeFees } from "./charge-fees";
import { Decimal } from "./decimal";
import { estimateEventFee } from "./estimate";
import { type HighWaterMark, payInAdvanceFee } from "./pay-in-advance";

// February 2024: 29 days, one seat costs 29 a period, so each day held in advance costs 1.00.
const seats: BillableMetric = { aggregation_type: "unique_count_agg", field_name: "seat", recurring: true };
const charge: UsageCharge = {
  charge_model: "standard",
  properties: { amount: "29" },
  pay_in_advance: true,
  prorated: true,
};
const february = { from: "2024-02-01T00:00:00.000Z", to: "2024-02-29T23:59:59.999Z", periodDays: 29 };
const seat = (at: string, id: string, remove = false): UsageEvent => ({
  timestamp: at,
  properties: { seat: id, ...(remove ? { operation_type: "remove" } : {}) },
});

/** Bills events one by one as the usage service would, carrying the period's high-water mark. */
function billSequentially(events: UsageEvent[], period = february, definition: UsageCharge = charge, metric = seats) {
  let mark: HighWaterMark | null = null;
  return events.map((event, i) => {
    const fee = payInAdvanceFee({
      charge: definition,
      metric,
      event,
      periodEvents: events.slice(0, i + 1),
      highWaterMark: mark,
      currency: "EUR",
      period,
    });
    mark = fee.high_water_mark;
    return fee;
  });
}

const usage = (events: UsageEvent[], definition: UsageCharge = charge, metric = seats) =>
  computeChargeFees({ charge: definition, metric, events, currency: "EUR", period: february }).fees[0]!;

describe("prorated pay-in-advance charges (billing-rules §1.11)", () => {
  const events = [
    seat("2024-02-10T09:00:00Z", "a"),
    seat("2024-02-15T09:00:00Z", "a", true),
    seat("2024-02-20T09:00:00Z", "a"),
    seat("2024-02-25T09:00:00Z", "b"),
  ];

  it("bills an added seat at once for the days left, refunds nothing on removal, and bills a re-added seat nothing", () => {
    expect(billSequentially(events).map((f) => [f.amount_cents, f.units])).toEqual([
      [2000, "1.0"], // Feb 10–29: 20 days
      [0, "0.0"], // removed: no refund
      [0, "1.0"], // re-added: already paid for this period
      [500, "1.0"], // Feb 25–29: 5 days
    ]);
  });

  it("keeps what was paid in the period's usage, where arrears proration would count only the days held", () => {
    const paid = usage(events);
    expect(paid).toMatchObject({ amount_cents: 2500, units: "2.0" });
    const arrears = usage(events, { ...charge, pay_in_advance: false });
    expect(arrears.amount_cents).toBe(2100); // a: Feb 10–15 and Feb 20–29, b: Feb 25–29
  });

  it("counts a seat paid for the whole month and removed on Feb 3 for the full paid amount", () => {
    const carried = [seat("2024-01-20T09:00:00Z", "a"), seat("2024-02-03T09:00:00Z", "a", true)];
    expect(usage(carried)).toMatchObject({ amount_cents: 2900, units: "1.0" });
    expect(billSequentially(carried.slice(1)).map((f) => f.amount_cents)).toEqual([0]);
    expect(usage(carried, { ...charge, pay_in_advance: false }).amount_cents).toBe(300);
  });

  it("prorates a sum_agg contribution above the high-water mark", () => {
    const gb: BillableMetric = { aggregation_type: "sum_agg", field_name: "gb", recurring: true };
    const perGb: UsageCharge = { ...charge, properties: { amount: "2.9" } };
    const stream: UsageEvent[] = [
      { timestamp: "2024-02-20T00:00:00Z", properties: { gb: 10 } },
      { timestamp: "2024-02-21T00:00:00Z", properties: { gb: -4 } },
      { timestamp: "2024-02-22T00:00:00Z", properties: { gb: 6 } },
    ];
    // +10 for Feb 20–29 (10 days), −4 free, +6 raises the mark by 2 for Feb 22–29 (8 days)
    expect(billSequentially(stream, february, perGb, gb).map((f) => [f.amount_cents, f.units])).toEqual([
      [1000, "10.0"],
      [0, "0.0"],
      [160, "2.0"],
    ]);
    expect(usage(stream, perGb, gb)).toMatchObject({ amount_cents: 1160, units: "12.0" });
  });

  it("counts the days left in the customer's zone", () => {
    const ny = {
      ...february,
      from: "2024-02-01T05:00:00.000Z",
      to: "2024-03-01T04:59:59.999Z",
      timeZone: "America/New_York",
    };
    // 03:00Z on Feb 10 is still Feb 9 in New York: 21 days
    expect(billSequentially([seat("2024-02-10T03:00:00Z", "a")], ny)[0]?.amount_cents).toBe(2100);
  });

  it("estimates the next seat for the days left", () => {
    const fee = estimateEventFee({
      charge,
      metric: seats,
      event: seat("2024-02-25T12:00:00Z", "c"),
      periodEvents: [seat("2024-02-10T09:00:00Z", "a")],
      highWaterMark: { current: "1", max: "1" },
      currency: "EUR",
      period: february,
    });
    expect([fee.amount_cents, fee.units]).toEqual([500, "1.0"]);
  });

  it("needs the period, and the standard model", () => {
    const event = seat("2024-02-10T09:00:00Z", "a");
    expect(() => payInAdvanceFee({ charge, metric: seats, event, periodEvents: [event], currency: "EUR" })).toThrow(
      RangeError,
    );
    const graduated = { ...charge, charge_model: "graduated" as const, properties: { graduated_ranges: [] } };
    expect(() =>
      payInAdvanceFee({
        charge: graduated,
        metric: seats,
        event,
        periodEvents: [event],
        currency: "EUR",
        period: february,
      }),
    ).toThrow(RangeError);
  });

  it("property: the per-event fees add up to the period's usage", () => {
    const op = fc.record({
      day: fc.integer({ min: 1, max: 29 }),
      seat: fc.constantFrom("a", "b", "c", "d"),
      remove: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 15 }), (ops) => {
        const stream = ops
          .map((o, i) =>
            seat(
              `2024-02-${String(o.day).padStart(2, "0")}T${String(i % 24).padStart(2, "0")}:00:00Z`,
              o.seat,
              o.remove,
            ),
          )
          .sort((x, y) => String(x.timestamp).localeCompare(String(y.timestamp)));
        const paid = billSequentially(stream).reduce((sum, f) => sum.plus(f.precise_amount_cents), new Decimal(0));
        expect(paid.toFixed()).toBe(new Decimal(usage(stream).precise_amount_cents).toFixed());
      }),
      { numRuns: 200 },
    );
  });
});
