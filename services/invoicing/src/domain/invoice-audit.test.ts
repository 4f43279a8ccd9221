import { describe, expect, it } from "vitest";
import type { UsageMessages } from "@billing/contracts";
import type { Fee, Invoice } from "./invoice";
import {
  advanceAsks,
  compareInvoice,
  rederiveAsks,
  type RederivedAdvanceChargeData,
  type RederivedChargeData,
} from "./invoice-audit";

const snapshot = (chargeId: string): UsageMessages.ChargeSnapshot__Output => ({
  v: 1,
  charge: {
    svc_id: chargeId,
    billable_metric_code: "calls",
    charge_model: "standard",
    pay_in_advance: false,
    prorated: false,
    min_amount_cents: 0,
    properties: null,
    filters: [],
  },
  metric: null,
  currency: "EUR",
  from: "2024-01-01T00:00:00.000Z",
  to: "2024-01-31T23:59:59.999Z",
  events_from: "2024-01-01T00:00:00.000Z",
  period_days: 31,
  time_zone: "UTC",
});
const READ_AT = new Date("2024-02-01T00:00:00.000Z");

const fee = (over: Partial<Fee>): Fee => ({
  id: "fee_1",
  fee_type: "charge",
  subscription_id: "sub_svc",
  external_subscription_id: "sub_1",
  plan_code: "p",
  charge_id: "ch_1",
  charge_filter_index: null,
  fixed_charge_id: null,
  billable_metric_code: "calls",
  charge_model: "standard",
  aggregation_type: "count_agg",
  true_up_parent_fee_id: null,
  true_up: false,
  item: {
    code: "calls",
    name: "calls",
    description: null,
    invoice_display_name: "calls",
    filter_invoice_display_name: null,
    filters: null,
    item_id: "bm",
    item_type: "BillableMetric",
    grouped_by: {},
  },
  units: "3.0",
  total_aggregated_units: "3.0",
  events_count: 3,
  precise_unit_amount: "1.0",
  amount_cents: 300,
  precise_amount_cents: "300.0",
  pay_in_advance: false,
  invoiceable: true,
  from: new Date("2024-01-01T00:00:00.000Z"),
  to: new Date("2024-01-31T23:59:59.999Z"),
  amount_details: {},
  properties: {},
  taxes: [],
  description: null,
  charge_snapshot: snapshot("ch_1"),
  usage_read_at: READ_AT,
  precise_coupons_amount_cents: "0",
  taxes_amount_cents: 0,
  taxes_precise_amount_cents: "0",
  taxes_rate: 0,
  sub_total_excluding_taxes_precise_amount_cents: "300",
  total_amount_cents: 300,
  applied_taxes: [],
  ...over,
});

const invoiceOf = (fees: Fee[]) =>
  ({ id: "inv_1", number: "ACM-001", status: "finalized", currency: "EUR", fees }) as unknown as Invoice;

const rederived = (fees: RederivedChargeData["fees"], late = 0): Map<string, RederivedChargeData> =>
  new Map([
    [
      "sub_svc|ch_1|2024-01-01T00:00:00.000Z|2024-01-31T23:59:59.999Z",
      { fees, events_read: 3 + late, late_events_count: late, late_events: [] },
    ],
  ]);
const same = {
  charge_filter_index: null,
  grouped_by: {},
  true_up: false,
  units: "3.0",
  events_count: 3,
  amount_cents: 300,
  precise_amount_cents: "300.0",
  persistable: true,
};

describe("invoice audit", () => {
  it("asks the usage service once per subscription and pricing instant, each charge snapshot once", () => {
    const asks = rederiveAsks(
      invoiceOf([
        fee({}),
        fee({ id: "fee_2", charge_filter_index: 0 }),
        fee({ id: "sub", fee_type: "subscription", charge_snapshot: undefined }),
      ]),
    );
    expect(asks).toHaveLength(1);
    expect(asks[0]).toMatchObject({ externalSubscriptionId: "sub_1", billedThrough: READ_AT });
    expect(asks[0]!.snapshots).toHaveLength(1);
  });

  it("matches when every re-derived fee equals its invoiced fee; plan fees are listed, not derived", () => {
    const view = compareInvoice(
      invoiceOf([
        fee({}),
        fee({ id: "sub", fee_type: "subscription", charge_id: null, charge_snapshot: undefined, amount_cents: 1000 }),
      ]),
      rederived([{ ...same, units: "3" }], 1),
      READ_AT,
    );
    expect(view).toMatchObject({
      match: true,
      mismatches: [],
      fees_amount_cents: { invoiced: 300, recomputed: 300 },
      late_events_count: 1,
    });
    expect(view.fees.map((f) => [f.svc_fee_id, f.derivation, f.match])).toEqual([
      ["fee_1", "raw_events", true],
      ["sub", "not_derived_from_events", null],
    ]);
  });

  it("names the fee and why when the amounts differ", () => {
    const view = compareInvoice(
      invoiceOf([fee({})]),
      rederived([{ ...same, units: "4.0", events_count: 4, amount_cents: 400, precise_amount_cents: "400.0" }]),
      READ_AT,
    );
    expect(view.match).toBe(false);
    expect(view.mismatches).toEqual([
      {
        svc_fee_id: "fee_1",
        svc_charge_id: "ch_1",
        reason:
          "units invoiced 3.0, recomputed 4.0; events_count invoiced 3, recomputed 4; amount_cents invoiced 300, recomputed 400",
      },
    ]);
  });

  it("catches a sub-cent difference, a fee the invoice lacks and a charge that could not be re-derived", () => {
    expect(
      compareInvoice(invoiceOf([fee({})]), rederived([{ ...same, precise_amount_cents: "300.4" }]), READ_AT)
        .mismatches[0]!.reason,
    ).toBe("precise_amount_cents invoiced 300.0, recomputed 300.4");
    const extra = compareInvoice(
      invoiceOf([fee({})]),
      rederived([same, { ...same, charge_filter_index: 0, amount_cents: 50 }]),
      READ_AT,
    );
    expect(extra.match).toBe(false);
    expect(extra.mismatches).toEqual([
      {
        svc_fee_id: null,
        svc_charge_id: "ch_1",
        reason: "not on the invoice: the raw events price 3.0 units, 50 cents",
      },
    ]);
    // a zero fee the invoice rightly left out is no mismatch
    expect(
      compareInvoice(
        invoiceOf([fee({})]),
        rederived([same, { ...same, charge_filter_index: 0, amount_cents: 0, persistable: false }]),
        READ_AT,
      ).match,
    ).toBe(true);
    expect(compareInvoice(invoiceOf([fee({})]), new Map(), READ_AT).mismatches[0]!.reason).toBe(
      "its charge snapshot could not be re-derived",
    );
  });

  it("reports a charge fee without a snapshot as not derived", () => {
    const view = compareInvoice(invoiceOf([fee({ charge_snapshot: undefined })]), new Map(), READ_AT);
    expect(view).toMatchObject({ match: true, fees: [{ derivation: "not_derived_from_events", match: null }] });
  });

  describe("pay-in-advance fees (one per event, no snapshot)", () => {
    const advance = (id: string, over: Partial<Fee> = {}) =>
      fee({
        id,
        pay_in_advance: true,
        charge_snapshot: undefined,
        usage_read_at: null,
        units: "1.0",
        events_count: 1,
        amount_cents: 120,
        precise_amount_cents: "120.0",
        ...over,
      });
    const KEY = "sub_svc|ch_1|2024-01-01T00:00:00.000Z|2024-01-31T23:59:59.999Z|";
    const replayed = (
      fees: Array<Partial<RederivedAdvanceChargeData["fees"][number]> & { fee_id: string }>,
      error: string | null = null,
    ) =>
      new Map<string, RederivedAdvanceChargeData>([
        [
          KEY,
          {
            error,
            billable_metric_code: "calls",
            events_read: 5,
            fees: fees.map((f, i) => ({
              event_transaction_id: `tx_${i}`,
              event_timestamp: "2024-01-10T00:00:00.000Z",
              charge_filter_index: null,
              grouped_by: {},
              units: "1.0",
              amount_cents: 120,
              precise_amount_cents: "120.0",
              replay_position: i + 1,
              ...f,
            })),
          },
        ],
      ]);

    it("asks for them per subscription, charge and period, and leaves them out of the snapshot asks", () => {
      const invoice = invoiceOf([advance("a1"), advance("a2"), advance("b1", { charge_id: "ch_2" }), fee({})]);
      expect(advanceAsks(invoice).map((a) => [a.key, a.feeIds])).toEqual([
        [KEY, ["a1", "a2"]],
        ["sub_svc|ch_2|2024-01-01T00:00:00.000Z|2024-01-31T23:59:59.999Z|", ["b1"]],
      ]);
      expect(advanceAsks(invoice).map((a) => a.chargeVersion)).toEqual([null, null]);
      expect(rederiveAsks(invoice)[0]!.snapshots).toHaveLength(1);
    });

    it("asks once per charge version the fees were priced with (the charge changed within the period), and matches each on its own", () => {
      const invoice = invoiceOf([
        advance("a1", { charge_version: "v1" }),
        advance("a2", { charge_version: "v2" }),
        advance("a3", { charge_version: "v1" }),
      ]);
      expect(advanceAsks(invoice).map((a) => [a.key, a.chargeVersion, a.feeIds])).toEqual([
        [`${KEY}v1`, "v1", ["a1", "a3"]],
        [`${KEY}v2`, "v2", ["a2"]],
      ]);
      const answer = (fees: string[]) => ({
        error: null,
        billable_metric_code: "calls",
        events_read: 3,
        fees: fees.map((fee_id, i) => ({
          fee_id,
          event_transaction_id: `tx_${i}`,
          event_timestamp: "2024-01-10T00:00:00.000Z",
          charge_filter_index: null,
          grouped_by: {},
          units: "1.0",
          amount_cents: 120,
          precise_amount_cents: "120.0",
          replay_position: i + 1,
        })),
      });
      const view = compareInvoice(
        invoice,
        new Map(),
        READ_AT,
        new Map([
          [`${KEY}v1`, answer(["a1", "a3"])],
          [`${KEY}v2`, answer(["a2"])],
        ]),
      );
      expect(view).toMatchObject({ match: true, mismatches: [] });
    });

    it("matches each fee with the replay's fee of its event, and lists the charge's events read", () => {
      const view = compareInvoice(
        invoiceOf([advance("a1"), advance("a2", { amount_cents: 0, precise_amount_cents: "0.0" })]),
        new Map(),
        READ_AT,
        replayed([{ fee_id: "a1" }, { fee_id: "a2", amount_cents: 0, precise_amount_cents: "0" }]),
      );
      expect(view).toMatchObject({
        match: true,
        mismatches: [],
        fees_amount_cents: { invoiced: 120, recomputed: 120 },
      });
      expect(view.fees.map((f) => [f.svc_fee_id, f.derivation, f.match, f.recomputed?.events_count])).toEqual([
        ["a1", "raw_events", true, 1],
        ["a2", "raw_events", true, 1],
      ]);
      expect(view.charges).toEqual([
        expect.objectContaining({
          svc_charge_id: "ch_1",
          raw_events_read: 5,
          late_events_count: 0,
          billable_metric_code: "calls",
        }),
      ]);
    });

    it("names the fee, its event and why when the replay differs, gives no fee, or cannot run", () => {
      const invoice = invoiceOf([advance("a1"), advance("a2")]);
      const differs = compareInvoice(
        invoice,
        new Map(),
        READ_AT,
        replayed([{ fee_id: "a1", amount_cents: 60, precise_amount_cents: "60.0" }]),
      );
      expect(differs.match).toBe(false);
      expect(differs.mismatches).toEqual([
        {
          svc_fee_id: "a1",
          svc_charge_id: "ch_1",
          reason:
            "pay-in-advance fee of event tx_0 of 2024-01-10T00:00:00.000Z, the charge's event #1 of the period in stored order: amount_cents invoiced 120, recomputed 60",
        },
        {
          svc_fee_id: "a2",
          svc_charge_id: "ch_1",
          reason:
            "no raw event stored for this charge in 2024-01-01T00:00:00.000Z..2024-01-31T23:59:59.999Z gives this pay-in-advance fee (5 events replayed)",
        },
      ]);
      const gone = compareInvoice(
        invoice,
        new Map(),
        READ_AT,
        replayed([], "the charge ch_1 is not on the subscription's plan any more"),
      );
      expect(gone.mismatches.map((m) => m.reason)).toEqual(
        Array(2).fill("pay-in-advance fee not re-derived: the charge ch_1 is not on the subscription's plan any more"),
      );
      expect(compareInvoice(invoice, new Map(), READ_AT).mismatches[0]!.reason).toBe(
        "its pay-in-advance charge could not be re-derived",
      );
    });
  });
});
