import { join } from "node:path";
import protobuf from "protobufjs";
import { describe, expect, it } from "vitest";
import {
  advanceFeeSetToProto,
  advanceFeesFromProto,
  advanceFeesText,
  parseAdvanceFees,
  type AdvanceFeeData,
} from "./advance-fees";
import type * as C from "./generated/common-messages";
import type * as U from "./generated/usage-messages";
import { usageEventFromProto, usageEventToProto } from "./usage-events";

const tax = { svc_id: "t1", name: "VAT", code: "vat", description: null, rate: "20.0" };
const charge = (id: string, filter: number | null) => ({
  organization_id: "org",
  subscription_id: "sub",
  external_subscription_id: "sub_ext",
  customer_id: "cus",
  external_customer_id: "cus_ext",
  plan_id: "plan",
  plan_code: "pro",
  charge_id: id,
  charge_filter_index: filter,
  filter: filter === null ? null : { values: { region: ["eu"] }, invoice_display_name: null },
  metric: { svc_id: "m1", code: "tokens", name: "Tokens", description: null, aggregation_type: "sum_agg" },
  charge_model: "standard",
  invoice_display_name: null,
  invoiceable: false,
  regroup_paid_fees: null,
  prorated: false,
  currency: "EUR",
  properties: { amount: "0.01" },
  charge_taxes: [tax],
  plan_taxes: [],
  from: "2026-11-01T00:00:00.000Z",
  to: "2026-11-30T23:59:59.999Z",
  timezone: "UTC",
});
const fee = (n: number, part: ReturnType<typeof charge>): AdvanceFeeData => ({
  ...part,
  id: `fee_${n}`,
  event_key: `["org","sub_ext","tx_${n}"]`,
  event_svc_id: `ev_${n}`,
  event_transaction_id: `tx_${n}`,
  event_timestamp: "2026-11-10T00:00:00.000Z",
  units: `${n}.0`,
  amount_cents: n,
  precise_amount_cents: `${n}.0`,
  unit_amount_cents: 1,
  precise_unit_amount: "0.01",
  amount_details: {},
  grouped_by: {},
});

describe("advance fees on the wire", () => {
  it("writes each charge part once per envelope and reads back the same fees", () => {
    const a = charge("c1", null);
    const b = charge("c1", 0);
    const fees = [fee(1, a), fee(2, b), fee(3, a), fee(4, a)];
    const text = advanceFeesText(fees);
    const raw = JSON.parse(text) as { charges: unknown[]; fees: Array<{ charge: number }> };
    expect(raw.charges).toHaveLength(2);
    expect(raw.fees.map((f) => f.charge)).toEqual([0, 1, 0, 0]);
    expect(parseAdvanceFees(text)).toEqual(fees);
    // an envelope's many fees on a few charges: the text is well under half as long
    const many = Array.from({ length: 20 }, (_, n) => fee(n, n % 2 ? a : b));
    expect(advanceFeesText(many).length).toBeLessThan(JSON.stringify(many).length / 2);
  });

  it("still reads the plain array answers were kept as, and refuses what is malformed", () => {
    const fees = [fee(1, charge("c1", null))];
    expect(parseAdvanceFees(JSON.stringify(fees))).toEqual(fees);
    expect(parseAdvanceFees("")).toEqual([]);
    expect(parseAdvanceFees(advanceFeesText([]))).toEqual([]);
    const text = JSON.parse(advanceFeesText(fees)) as { fees: Array<{ charge: number }> };
    text.fees[0]!.charge = 3;
    expect(() => parseAdvanceFees(JSON.stringify(text))).toThrow("names charge 3 of 1");
    expect(() => parseAdvanceFees(JSON.stringify({ charges: [], fees: [{ charge: 0 }] }))).toThrow();
  });

  it("keeps the charge version once per charge part, and reads fees priced before versions as having none", () => {
    const v1 = { ...charge("c1", null), charge_version: "v1" };
    const v2 = { ...charge("c1", null), charge_version: "v2" };
    const fees = [fee(1, v1), fee(2, v1), fee(3, v2)];
    const text = advanceFeesText(fees);
    const raw = JSON.parse(text) as {
      charges: Array<{ charge_version?: string }>;
      fees: Array<Record<string, unknown>>;
    };
    expect(raw.charges.map((c) => c.charge_version)).toEqual(["v1", "v2"]);
    expect(raw.fees.every((f) => !("charge_version" in f))).toBe(true);
    expect(parseAdvanceFees(text).map((f) => f.charge_version)).toEqual(["v1", "v1", "v2"]);
    const before = [fee(1, charge("c1", null))];
    expect(parseAdvanceFees(advanceFeesText(before))[0]!.charge_version ?? null).toBeNull();
    expect(parseAdvanceFees(JSON.stringify(before))[0]!.charge_version ?? null).toBeNull();
  });
});

// encoded and decoded as the gRPC calls do (proto-loader's options)
const PROTO = join(__dirname, "../../../proto");
const root = new protobuf.Root();
root.resolvePath = (_origin, target) => join(PROTO, target);
root.loadSync("billing/usage/v1/advance_fees.proto", { keepCase: true });
const wire = <T>(typeName: string, value: unknown): T => {
  const type = root.lookupType(typeName.includes(".") ? typeName : `billing.usage.v1.${typeName}`);
  const bytes = type.encode(type.fromObject(value as Record<string, unknown>)).finish();
  return type.toObject(type.decode(bytes), {
    longs: Number,
    enums: String,
    defaults: true,
    arrays: true,
    objects: true,
    oneofs: true,
  }) as T;
};

describe("advance fees as the AdvanceFeeSet message", () => {
  it("carries each charge part once and gives back the same fees", () => {
    const a = {
      ...charge("c1", null),
      charge_version: "v1",
      properties: { amount: "0.01", pricing_group_keys: ["region"] },
    };
    const b = { ...charge("c1", 0), filter: { values: { region: ["eu"] }, invoice_display_name: "EU" } };
    const own = (n: number) => ({ ...fee(n, charge("c1", null)), grouped_by: { region: "eu" } });
    const priced = (n: number, part: typeof a | typeof b): AdvanceFeeData => ({
      ...own(n),
      ...part,
      amount_details: { free_units: "0.0", paid_units: `${n}.0`, per_package_size: 10, per_package_unit_amount: "1.0" },
    });
    const fees = [priced(1, a), priced(2, b), priced(3, a)];
    const message = wire<U.AdvanceFeeSet__Output>("AdvanceFeeSet", advanceFeeSetToProto(fees));
    expect(message.charges).toHaveLength(2);
    expect(message.fees.map((f) => f.charge)).toEqual([0, 1, 0]);
    const back = advanceFeesFromProto(message);
    expect(back).toEqual(fees);
    expect(back[1]!.charge_version).toBeUndefined();
    expect(advanceFeesFromProto(wire("AdvanceFeeSet", advanceFeeSetToProto([])))).toEqual([]);
    expect(advanceFeesFromProto(null)).toEqual([]);
  });

  it("a null pricing group value comes back as the empty string, as invoices show it", () => {
    const fees = [{ ...fee(1, charge("c1", null)), grouped_by: { region: null } }];
    expect(advanceFeesFromProto(wire("AdvanceFeeSet", advanceFeeSetToProto(fees)))[0]!.grouped_by).toEqual({
      region: "",
    });
  });

  it("refuses a fee naming a charge part the set lacks", () => {
    const message = wire<U.AdvanceFeeSet__Output>("AdvanceFeeSet", advanceFeeSetToProto([fee(1, charge("c1", null))]));
    message.fees[0]!.charge = 3;
    expect(() => advanceFeesFromProto(message)).toThrow("names charge 3 of 1");
  });

  it("an event's properties travel as the customer's JSON text, checked on arrival", () => {
    const event = {
      svc_id: "ev",
      transaction_id: "tx",
      external_subscription_id: "sub",
      code: "calls",
      timestamp: "2026-11-10T00:00:00.000Z",
      properties: { region: "eu", n: 2 },
      created_at: "2026-11-10T00:00:01.000Z",
    };
    const USAGE_EVENT = "billing.common.v1.UsageEvent";
    expect(usageEventFromProto(wire(USAGE_EVENT, usageEventToProto(event)))).toEqual(event);
    expect(usageEventFromProto(wire(USAGE_EVENT, usageEventToProto({ ...event, properties: {} }))).properties).toEqual(
      {},
    );
    expect(
      usageEventFromProto(wire(USAGE_EVENT, usageEventToProto({ ...event, properties: null, created_at: null }))),
    ).toEqual({ ...event, properties: {}, created_at: "" });
    const wrong = wire<C.UsageEvent__Output>(USAGE_EVENT, { ...usageEventToProto(event), properties_json: "[1]" });
    expect(() => usageEventFromProto(wrong)).toThrow();
  });
});
