import { join } from "node:path";
import protobuf from "protobufjs";
import { describe, expect, it } from "vitest";
import { feePropertiesFromProto, feePropertiesToProto } from "./fee-properties";

// encoded and decoded as the gRPC calls do (proto-loader's options)
const PROTO = join(__dirname, "../../../proto");
const root = new protobuf.Root();
root.resolvePath = (_origin, target) => join(PROTO, target);
root.loadSync("billing/invoicing/v1/invoicing.proto", { keepCase: true });
const type = root.lookupType("billing.invoicing.v1.FeeProperties");
const wire = (value: unknown) =>
  type.toObject(type.decode(type.encode(type.fromObject(value as Record<string, unknown>)).finish()), {
    longs: Number,
    enums: String,
    defaults: true,
    arrays: true,
    objects: true,
    oneofs: true,
  }) as Parameters<typeof feePropertiesFromProto>[0];

describe("a fee's properties ⇄ FeeProperties", () => {
  it.each([
    ["charge", { amount: "0.5", pricing_group_keys: ["team"] }],
    ["charge", { graduated_ranges: [{ from_value: 0, to_value: null, per_unit_amount: "1", flat_amount: "0" }] }],
    ["fixed_charge", { amount: "10", units: "3" }],
    ["subscription", { amount_cents: 1_000, days: 15, period_days: 31 }],
    ["commitment", { commitment_amount_cents: 5_000, fees_amount_cents: 1_200 }],
    [
      "add_on",
      {
        from_datetime: "2024-01-01T00:00:00.000Z",
        to_datetime: "2024-01-31T23:59:59.999Z",
        timestamp: "2024-01-15T00:00:00.000Z",
      },
    ],
    ["credit", {}],
  ])("a %s fee's come back as they were: %j", (feeType, properties) => {
    expect(feePropertiesFromProto(wire(feePropertiesToProto(feeType, properties)))).toStrictEqual(properties);
  });
});
