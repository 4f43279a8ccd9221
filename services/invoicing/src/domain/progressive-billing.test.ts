import { describe, expect, it } from "vitest";
import type { ChargeViewData } from "@billing/contracts";
import { billingPeriodFor } from "@billing/pricing";
import type { ChargeFee } from "./invoice-fees";
import { invoicingTerms } from "./invoicing-terms";
import {
  crossedThresholds,
  latestProgressiveInvoice,
  lifetimeState,
  mergedProgressiveCredit,
  newProgressiveInvoice,
  progressiveCreditFrom,
  progressiveInvoiceIdOf,
  progressiveUsageCents,
} from "./progressive-billing";
import { progressiveCreditParts } from "./invoice";
import { copyFixture, customerFixture } from "./test-fixtures";

const thresholds = [
  {
    svc_id: "ut_2",
    threshold_display_name: null,
    amount_cents: 200,
    recurring: false,
    created_at: null,
    updated_at: null,
  },
  {
    svc_id: "ut_5",
    threshold_display_name: "five",
    amount_cents: 500,
    recurring: false,
    created_at: null,
    updated_at: null,
  },
  {
    svc_id: "ut_r",
    threshold_display_name: null,
    amount_cents: 1_000,
    recurring: true,
    created_at: null,
    updated_at: null,
  },
];
const charge = (svc_id: string, extra: Partial<ChargeViewData> = {}): ChargeViewData => ({
  svc_id,
  svc_billable_metric_id: "bm",
  billable_metric_code: "compute",
  code: null,
  charge_model: "standard",
  pay_in_advance: false,
  invoiceable: true,
  prorated: false,
  min_amount_cents: 0,
  regroup_paid_fees: null,
  invoice_display_name: null,
  properties: { amount: "0.0002" },
  filters: [],
  taxes: [],
  created_at: null,
  ...extra,
});
const copy = copyFixture(
  { started_at: "2024-01-01T00:00:00.000Z", subscription_at: "2024-01-01T00:00:00.000Z" },
  { usage_thresholds: thresholds, charges: [charge("ch_arrears"), charge("ch_advance", { pay_in_advance: true })] },
);
const period = billingPeriodFor(
  {
    interval: "monthly",
    billing_time: "calendar",
    subscription_at: "2024-01-01T00:00:00.000Z",
    started_at: "2024-01-01T00:00:00.000Z",
    timezone: "UTC",
  },
  new Date("2024-01-16T12:00:00Z"),
);

function fee(chargeId: string, cents: number, extra: Partial<ChargeFee> = {}): ChargeFee {
  return {
    charge_id: chargeId,
    billable_metric_id: "bm",
    billable_metric_code: "compute",
    billable_metric_name: "Compute",
    aggregation_type: "sum_agg",
    charge_model: "standard",
    grouped_by: {},
    true_up: false,
    units: "1.0",
    total_aggregated_units: "1.0",
    events_count: 1,
    amount_cents: cents,
    precise_amount_cents: `${cents}.0`,
    unit_amount_cents: cents,
    precise_unit_amount: "0.0002",
    amount_details: null,
    properties: null,
    persistable: true,
    pay_in_advance: false,
    invoiceable: true,
    ...extra,
  } as ChargeFee;
}

const customer = customerFixture();
function progressiveInvoice(
  fees: ChargeFee[],
  state = lifetimeState([], "sub_ext", period.from_datetime, 0),
  now = new Date("2024-01-16T12:00:00Z"),
) {
  const crossed = crossedThresholds(copy, state, progressiveUsageCents(copy, fees));
  return newProgressiveInvoice({
    id: progressiveInvoiceIdOf(copy, period.from_datetime, state),
    copy,
    customer: { id: customer.svc_id, customer },
    entity: null,
    terms: invoicingTerms(customer, null),
    period,
    chargeFees: fees,
    state,
    crossed,
    lifetimeUsageCents: 660,
    sandbox: true,
    now,
  });
}

describe("progressive billing", () => {
  it("measures the in-arrears invoiceable usage only (no pay-in-advance charge, no true-up)", () => {
    expect(
      progressiveUsageCents(copy, [
        fee("ch_arrears", 660),
        fee("ch_advance", 5_000),
        fee("ch_arrears", 90, { true_up: true }),
      ]),
    ).toBe(660);
  });

  it("invoices the period-to-date charges, then credits them on the next progressive invoice", () => {
    const first = progressiveInvoice([fee("ch_arrears", 220)]);
    expect(first).toMatchObject({
      invoice_type: "progressive_billing",
      status: "generating",
      issuing_date: "2024-01-16",
      expected_finalization_date: null,
    });
    expect(first.amounts).toMatchObject({
      fees_amount_cents: 220,
      progressive_billing_credit_amount_cents: 0,
      total_amount_cents: 220,
    });
    expect(first.applied_usage_thresholds?.map((a) => a.usage_threshold.svc_id)).toEqual(["ut_2"]);
    expect(first.lines[0]).toMatchObject({
      invoicing_reason: "progressive_billing",
      charges_from: period.from_datetime,
      charges_to: period.to_datetime,
    });

    const state = lifetimeState(
      [{ ...first, status: "finalized" }],
      copy.subscription.external_id,
      period.from_datetime,
      0,
    );
    expect(state).toMatchObject({ invoiced_usage_cents: 0, progressive_billed_cents: 220 });
    const second = progressiveInvoice(
      [fee("ch_arrears", 660), fee("ch_advance", 5_000)],
      state,
      new Date("2024-01-17T00:00:00Z"),
    );
    // 6.60 billed, 2.20 credited (spread on the same charge's fee); the pay-in-advance charge is not on it
    expect(second.fees.map((f) => [f.charge_id, f.amount_cents, f.precise_coupons_amount_cents])).toEqual([
      ["ch_arrears", 660, "220.0"],
    ]);
    expect(second.amounts).toMatchObject({
      fees_amount_cents: 660,
      progressive_billing_credit_amount_cents: 220,
      total_amount_cents: 440,
    });
    expect(second.applied_usage_thresholds?.map((a) => a.usage_threshold.svc_id)).toEqual(["ut_5"]);
    expect(second.progressive_credit?.progressive_invoice_ids).toEqual([first.id]);
    // a different state: a different invoice
    expect(second.id).not.toBe(first.id);
  });

  it("derives one id per starting state, whatever usage each checker read", () => {
    const state = lifetimeState([], "sub_ext", period.from_datetime, 0);
    expect(progressiveInvoice([fee("ch_arrears", 220)]).id).toBe(progressiveInvoice([fee("ch_arrears", 700)]).id);
    expect(progressiveInvoiceIdOf(copy, period.from_datetime, { ...state, historical_usage_cents: 1 })).not.toBe(
      progressiveInvoiceIdOf(copy, period.from_datetime, state),
    );
  });

  it("credits the latest progressive invoice of the period only, and checks nothing for an inactive subscription", () => {
    const older = { ...progressiveInvoice([fee("ch_arrears", 220)]), status: "finalized" as const };
    const newer = {
      ...older,
      id: "newer",
      billed_at: new Date("2024-01-20T00:00:00Z"),
      amounts: { ...older.amounts, fees_amount_cents: 660, coupons_amount_cents: 60 },
    };
    const otherPeriod = {
      ...older,
      id: "other",
      billed_at: new Date("2024-02-20T00:00:00Z"),
      lines: [{ ...older.lines[0]!, charges_from: new Date("2024-02-01T00:00:00Z") }],
    };
    expect(
      latestProgressiveInvoice([older, newer, otherPeriod], copy.subscription.external_id, period.from_datetime)?.id,
    ).toBe("newer");
    expect(progressiveCreditFrom(newer, copy.id).amount_cents).toBe(600);
    const terminated = { ...copy, subscription: { ...copy.subscription, status: "terminated" as const } };
    expect(crossedThresholds(terminated, lifetimeState([], "x", period.from_datetime, 0), 10_000)).toEqual([]);
  });

  it("keeps one credit per subscription when an invoice merges several, and prices invoices stored before that as one", () => {
    const a = progressiveCreditFrom({ ...progressiveInvoice([fee("ch_arrears", 220)]), id: "prog_a" }, copy.id);
    const b = progressiveCreditFrom({ ...progressiveInvoice([fee("ch_arrears", 500)]), id: "prog_b" }, copy.id);
    const merged = mergedProgressiveCredit([a, b])!;
    expect(merged).toMatchObject({ amount_cents: 720, progressive_invoice_ids: ["prog_a", "prog_b"] });
    expect(
      progressiveCreditParts(merged)!.map((p) => [p.progressive_invoice_id, p.subscription_id, p.amount_cents]),
    ).toEqual([
      ["prog_a", copy.id, 220],
      ["prog_b", copy.id, 500],
    ]);
    // stored before parts: one progressive invoice is still one part (any subscription); several cannot be told apart
    const { parts: _a, ...legacyOne } = a;
    expect(progressiveCreditParts(legacyOne)).toEqual([
      { subscription_id: null, progressive_invoice_id: "prog_a", amount_cents: 220, previous_fees: a.previous_fees },
    ]);
    const { parts: _m, ...legacyMerged } = merged;
    expect(progressiveCreditParts(legacyMerged)).toBeNull();
  });
});
