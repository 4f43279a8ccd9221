import { describe, expect, it } from "vitest";
import { localDateOf, subscriptionInvoicePeriods } from "@billing/pricing";
import type { ChargeFee, PricedLine } from "./invoice-fees";
import { invoiceFees, selectTaxes, usageFees } from "./invoice-fees";
import { billLine } from "./invoice-lines";
import { copyFixture, customerFixture } from "./test-fixtures";

const tax = (code: string, rate = "20") => ({ svc_id: `tax_${code}`, name: code, code, description: null, rate });
const chargeFee = (overrides: Partial<ChargeFee> = {}): ChargeFee => ({
  charge_id: "ch_1",
  billable_metric_id: "bm_1",
  billable_metric_code: "calls",
  billable_metric_name: "API calls",
  aggregation_type: "count_agg",
  charge_model: "standard",
  grouped_by: {},
  true_up: false,
  units: "7.0",
  total_aggregated_units: "7.0",
  events_count: 7,
  amount_cents: 350,
  precise_amount_cents: "350.0",
  unit_amount_cents: 50,
  precise_unit_amount: "0.5",
  amount_details: null,
  properties: {
    amount: "0.5",
    graduated_ranges: [],
    graduated_percentage_ranges: [],
    volume_ranges: [],
    null_fields: [],
  },
  persistable: true,
  pay_in_advance: false,
  invoiceable: true,
  charge_snapshot: null,
  ...overrides,
});
const charge = (overrides = {}) => ({
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
  properties: { amount: "0.5" },
  filters: [],
  taxes: [],
  created_at: null,
  ...overrides,
});

function priced(
  copy = copyFixture(
    { started_at: "2024-01-01T00:00:00.000Z", subscription_at: "2024-01-01T00:00:00.000Z" },
    { charges: [charge()] },
  ),
  fees: ChargeFee[] = [chargeFee()],
): PricedLine {
  const { line, periods } = billLine(copy, { at: new Date("2024-02-01T00:00:00Z"), reason: "subscription_periodic" });
  return { copy, line, periods, chargeFees: fees };
}
const ctx = { invoiceId: "inv_1", customer: customerFixture(), entityTaxes: [], currency: "EUR" };

describe("an invoice's fees", () => {
  it("bills the base fee, then each charge fee, the way pricing and usage priced them", () => {
    const fees = invoiceFees(ctx, [priced()]);
    expect(fees.map((f) => [f.fee_type, f.amount_cents, f.units, f.from?.toISOString(), f.to?.toISOString()])).toEqual([
      ["subscription", 3_100, "1.0", "2024-01-01T00:00:00.000Z", "2024-01-31T23:59:59.999Z"],
      ["charge", 350, "7.0", "2024-01-01T00:00:00.000Z", "2024-01-31T23:59:59.999Z"],
    ]);
    // what each fee was priced from is kept
    expect(fees[1]).toMatchObject({
      events_count: 7,
      properties: { amount: "0.5" },
      item: { code: "calls", name: "API calls", item_type: "BillableMetric" },
    });
    expect(fees[0]!.amount_details).toEqual({ plan_amount_cents: 3_100 });
  });

  it("keeps fee ids when a draft is priced again, and leaves out charge fees Lago would not store", () => {
    const again = invoiceFees(ctx, [
      priced(undefined, [
        chargeFee({ amount_cents: 400 }),
        chargeFee({ charge_id: "ch_1", charge_filter_index: 0, persistable: false }),
      ]),
    ]);
    expect(again.map((f) => f.id)).toEqual(invoiceFees(ctx, [priced()]).map((f) => f.id));
    expect(
      usageFees(ctx, priced(undefined, [chargeFee({ persistable: false, units: "0.0", amount_cents: 0 })])),
    ).toHaveLength(1);
  });

  it("links a charge's min_amount true-up to the charge fee it completes", () => {
    const fees = invoiceFees(ctx, [
      priced(undefined, [chargeFee(), chargeFee({ true_up: true, amount_cents: 650, units: "1.0" })]),
    ]);
    expect(fees[2]).toMatchObject({
      true_up: true,
      true_up_parent_fee_id: fees[1]!.id,
      item: { invoice_display_name: "API calls - true-up" },
    });
  });

  it("selects taxes: the charge's, else the plan's, else the customer's, else the billing entity's", () => {
    expect(selectTaxes([], [tax("plan")], [tax("customer")])).toEqual([tax("plan")]);
    expect(selectTaxes([], [], [], [tax("entity")])).toEqual([tax("entity")]);
    const copy = copyFixture(
      { started_at: "2024-01-01T00:00:00.000Z" },
      { charges: [charge({ taxes: [tax("charge")] })], taxes: [tax("plan")] },
    );
    const fees = invoiceFees({ ...ctx, entityTaxes: [tax("entity")] }, [priced(copy)]);
    expect(fees.map((f) => f.taxes.map((t) => t.code))).toEqual([["plan"], ["charge"]]);
  });

  it("bills fixed charges: arrears over the period that ended, in advance over the one that starts", () => {
    const fixed = (svc_id: string, pay_in_advance: boolean) => ({
      svc_id,
      svc_add_on_id: `addon_${svc_id}`,
      add_on_code: `seats_${svc_id}`,
      add_on_name: null,
      code: null,
      charge_model: "standard",
      pay_in_advance,
      prorated: false,
      units: "3",
      invoice_display_name: null,
      properties: { amount: "10" },
      taxes: [],
      created_at: null,
    });
    const copy = copyFixture(
      { started_at: "2024-01-01T00:00:00.000Z" },
      { fixed_charges: [fixed("a", false), fixed("b", true)] },
    );
    const fees = invoiceFees(ctx, [priced(copy, [])]).filter((f) => f.fee_type === "fixed_charge");
    expect(fees.map((f) => [f.fixed_charge_id, f.amount_cents, f.units, f.from?.toISOString().slice(0, 10)])).toEqual([
      ["a", 3_000, "3.0", "2024-01-01"],
      ["b", 3_000, "3.0", "2024-02-01"],
    ]);
  });

  it("trues up a minimum commitment with the fees of the plan period, earlier invoices' included", () => {
    const copy = copyFixture(
      { started_at: "2024-01-01T00:00:00.000Z" },
      {
        charges: [charge()],
        minimum_commitment: { svc_id: "com_1", amount_cents: 5_000, invoice_display_name: null, taxes: [] },
      },
    );
    const line = priced(copy);
    const fees = invoiceFees(ctx, [line]);
    expect(fees.at(-1)).toMatchObject({ fee_type: "commitment", amount_cents: 5_000 - 3_100 - 350 });
    const withPrior = invoiceFees(ctx, [
      {
        ...line,
        priorFees: [
          {
            amount_cents: 1_000,
            precise_amount_cents: "1000",
            from: new Date("2024-01-10T00:00:00Z"),
            to: new Date("2024-01-20T00:00:00Z"),
          },
        ],
      },
    ]);
    expect(withPrior.at(-1)!.amount_cents).toBe(550);
  });

  it("bills a termination's base fee to the termination day, and the usage to the termination instant", () => {
    const copy = copyFixture(
      { started_at: "2024-01-01T00:00:00.000Z", status: "terminated", terminated_at: "2024-01-10T12:00:00.000Z" },
      { charges: [charge()] },
    );
    const { line, periods } = billLine(copy, {
      at: new Date("2024-01-10T12:00:00Z"),
      reason: "subscription_terminating",
    });
    expect(periods).toEqual(
      subscriptionInvoicePeriods({
        timing: {
          interval: "monthly",
          billing_time: "calendar",
          subscription_at: copy.subscription.subscription_at,
          started_at: "2024-01-01T00:00:00.000Z",
          terminated_at: "2024-01-10T12:00:00.000Z",
          timezone: "UTC",
        },
        plan: {
          amount_cents: 3_100,
          pay_in_advance: false,
          trial_period: 0,
          bill_charges_monthly: null,
          bill_fixed_charges_monthly: null,
        },
        reason: "subscription_terminating",
        billing_date: localDateOf(new Date("2024-01-10T12:00:00Z"), "UTC"),
        initial_started_at: "2024-01-01T00:00:00.000Z",
      }),
    );
    const [base] = invoiceFees(ctx, [{ copy, line, periods, chargeFees: [] }]);
    expect(base).toMatchObject({ amount_cents: 1_000 }); // 10 days of 31 × 3100
    expect(line).toMatchObject({
      reason: "subscription_terminating",
      charges_to: new Date("2024-01-10T12:00:00.000Z"),
    });
  });
});
