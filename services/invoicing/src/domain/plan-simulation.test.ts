import { describe, expect, it } from "vitest";
import type { ChargeViewData } from "@billing/contracts";
import type { FeeDraft, Invoice, InvoiceLine } from "./invoice";
import { chargeFeesOf, simulatedPeriod, simulatedSnapshot, simulationView } from "./plan-simulation";
import { planFixture } from "./test-fixtures";

const charge: ChargeViewData = {
  svc_id: "ch_1",
  svc_billable_metric_id: "bm_1",
  billable_metric_code: "calls",
  code: null,
  charge_model: "standard",
  pay_in_advance: false,
  invoiceable: true,
  prorated: false,
  min_amount_cents: 0,
  regroup_paid_fees: null,
  invoice_display_name: null,
  properties: { amount: "1" },
  filters: [],
  taxes: [],
  created_at: null,
};
const plan = planFixture({ code: "pro", amount_currency: "EUR", charges: [charge] });
const line = {
  subscription_id: "s1",
  external_subscription_id: "sub_1",
  plan_code: "basic",
  invoicing_reason: "subscription_periodic",
  subscription_from: new Date("2024-01-01T00:00:00Z"),
  subscription_to: new Date("2024-01-31T23:59:59.999Z"),
} as unknown as InvoiceLine;
const invoice = {
  id: "inv_1",
  number: "N-1",
  issuing_date: "2024-02-01",
  fees: [
    { subscription_id: "s1", amount_cents: 1_500 },
    { subscription_id: "s1", amount_cents: 0 },
    { subscription_id: "other", amount_cents: 999 },
  ],
} as unknown as Invoice;
const draft = (amount_cents: number, fee_type = "charge") =>
  ({
    fee_type,
    amount_cents,
    item: { code: "calls", grouped_by: {} },
    charge_filter_index: null,
    units: "1.0",
    events_count: 1,
  }) as unknown as FeeDraft;

describe("plan simulation", () => {
  it("asks for the plan's charge over the span with no metric (the usage service's current one)", () => {
    const s = simulatedSnapshot(
      charge,
      plan,
      {
        from: new Date("2024-01-01T00:00:00Z"),
        to: new Date("2024-01-31T23:59:59.999Z"),
        periodDays: 31,
        billedDays: 31,
      },
      "Europe/Paris",
    );
    expect(s).toMatchObject({
      v: 1,
      currency: "EUR",
      from: "2024-01-01T00:00:00.000Z",
      to: "2024-01-31T23:59:59.999Z",
      events_from: "2024-01-01T00:00:00.000Z",
      period_days: 31,
      billed_days: 31,
      time_zone: "Europe/Paris",
      charge: {
        svc_id: "ch_1",
        billable_metric_code: "calls",
        charge_model: "standard",
        pay_in_advance: false,
        prorated: false,
        min_amount_cents: 0,
        properties: { amount: "1" },
        filters: [],
      },
    });
    expect(s.metric).toBeUndefined();
  });

  it("turns the re-derived fees into the charge fees billing composes", () => {
    const [fee] = chargeFeesOf(charge, {
      fees: [
        {
          charge_filter_index: 0,
          grouped_by: { team: null },
          true_up: false,
          units: "3.0",
          events_count: 3,
          amount_cents: 300,
          precise_amount_cents: "300.0",
          persistable: true,
        },
      ],
      events_read: 3,
      late_events_count: 0,
      late_events: [],
    });
    expect(fee).toMatchObject({
      charge_id: "ch_1",
      billable_metric_code: "calls",
      charge_filter_index: 0,
      grouped_by: { team: "" },
      units: "3.0",
      amount_cents: 300,
      persistable: true,
      invoiceable: true,
    });
  });

  it("compares a line's simulated fees with the fees that line was billed, per period and in total", () => {
    const period = simulatedPeriod(invoice, line, [draft(1_000, "subscription"), draft(600)]);
    expect(period).toMatchObject({
      billed_fees_amount_cents: 1_500,
      simulated_fees_amount_cents: 1_600,
      difference_amount_cents: 100,
      from_datetime: "2024-01-01T00:00:00.000Z",
    });
    const cheaper = simulatedPeriod(invoice, line, [draft(250)]);
    expect(cheaper.difference_amount_cents).toBe(-1_250);
    expect(simulationView({ externalCustomerId: "acme", plan, from: null, to: null }, [period, cheaper])).toMatchObject(
      {
        billed_fees_amount_cents: 3_000,
        simulated_fees_amount_cents: 1_850,
        difference_amount_cents: -1_150,
        currency: "EUR",
      },
    );
  });
});
