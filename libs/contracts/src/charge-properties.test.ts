import { join } from "node:path";
import { chargePropertiesSchema, type ChargeModelName } from "@billing/pricing";
import protobuf from "protobufjs";
import { describe, expect, it } from "vitest";
import {
  amountDetailsFromProto,
  amountDetailsToProto,
  chargeFilterFromProto,
  chargeFilterToProto,
  chargePropertiesFromProto,
  chargePropertiesToProto,
  groupedByToProto,
} from "./charge-properties";

// encoded and decoded as the gRPC calls do (proto-loader's options)
const root = new protobuf.Root().loadSync(join(__dirname, "../../../proto/billing/common/v1/charges.proto"), {
  keepCase: true,
});
const wire = <T>(typeName: string, value: unknown): T => {
  const type = root.lookupType(`billing.common.v1.${typeName}`);
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

const SAMPLES: Array<[ChargeModelName, unknown]> = [
  ["standard", { amount: "0.05" }],
  ["standard", { amount: null, pricing_group_keys: ["region", "tier"] }],
  ["standard", { amount: "1", grouped_by: [] }],
  ["package", { amount: "7.5", package_size: 100, free_units: 10 }],
  ["package", { amount: "7.5", package_size: 1, free_units: null }],
  [
    "graduated",
    {
      graduated_ranges: [
        { from_value: 0, to_value: 10, per_unit_amount: "1.5", flat_amount: "0" },
        { from_value: 11, to_value: null, per_unit_amount: "0.5", flat_amount: "2" },
      ],
    },
  ],
  [
    "graduated_percentage",
    {
      graduated_percentage_ranges: [
        { from_value: 0, to_value: 100.5, rate: "2", flat_amount: "0.1" },
        { from_value: "100.5", to_value: null, rate: "1", flat_amount: "0" },
      ],
    },
  ],
  [
    "volume",
    {
      volume_ranges: [{ from_value: 0, to_value: null, per_unit_amount: "3", flat_amount: "1" }],
      pricing_group_keys: null,
    },
  ],
  [
    "percentage",
    {
      rate: "2.5",
      fixed_amount: "0.25",
      free_units_per_events: 3,
      free_units_per_total_aggregation: null,
      per_transaction_min_amount: "1",
      per_transaction_max_amount: "10",
    },
  ],
  ["dynamic", {}],
];

describe("charge properties ⇄ ChargeProperties", () => {
  it.each(SAMPLES)("%s properties come back as the schema left them: %j", (model, sent) => {
    const properties = chargePropertiesSchema(model).parse(sent);
    const back = chargePropertiesFromProto(wire("ChargeProperties", chargePropertiesToProto(properties)));
    expect(back).toStrictEqual(properties);
  });

  it("an absent message is no properties", () => {
    expect(chargePropertiesFromProto(null)).toEqual({});
  });

  it("a filter keeps its values, properties and display name", () => {
    const filter = {
      invoice_display_name: "EU",
      properties: { amount: "2" },
      values: { region: ["eu", "uk"], tier: ["__ALL_FILTER_VALUES__"] },
    };
    expect(chargeFilterFromProto(wire("ChargeFilter", chargeFilterToProto(filter)))).toStrictEqual(filter);
    const unnamed = { invoice_display_name: null, properties: {}, values: { region: ["us"] } };
    expect(chargeFilterFromProto(wire("ChargeFilter", chargeFilterToProto(unnamed)))).toStrictEqual(unnamed);
  });

  it("a null pricing group value travels as the empty string", () => {
    expect(groupedByToProto({ region: "eu", tier: null })).toEqual({ region: "eu", tier: "" });
  });
});

describe("amount_details ⇄ FeeAmountDetails", () => {
  const DETAILS: Array<Record<string, unknown>> = [
    {
      graduated_ranges: [
        {
          units: "10.0",
          from_value: 0,
          to_value: 10,
          flat_unit_amount: "0.0",
          per_unit_amount: "1.5",
          per_unit_total_amount: "15.0",
          total_with_flat_amount: "15.0",
        },
        {
          units: "2.0",
          from_value: 11,
          to_value: null,
          flat_unit_amount: "2.0",
          per_unit_amount: "0.5",
          per_unit_total_amount: "1.0",
          total_with_flat_amount: "3.0",
        },
      ],
    },
    {
      graduated_percentage_ranges: [
        {
          units: "5.0",
          from_value: 0,
          to_value: null,
          flat_unit_amount: "0.0",
          rate: "2.0",
          per_unit_total_amount: "0.1",
          total_with_flat_amount: "0.1",
        },
      ],
    },
    { free_units: "10.0", paid_units: "140.0", per_package_size: 100, per_package_unit_amount: "7.5" },
    {
      units: "150.0",
      free_units: "0.0",
      paid_units: "150.0",
      rate: "2.5",
      per_unit_total_amount: "3.75",
      free_events: 0,
      paid_events: 3,
      fixed_fee_unit_amount: "0.25",
      fixed_fee_total_amount: "0.75",
      min_max_adjustment_total_amount: "0.0",
    },
    { flat_unit_amount: "1.0", per_unit_amount: "3.0", per_unit_total_amount: "30.0" },
    { plan_amount_cents: 1000 },
    {},
  ];
  it.each(DETAILS)("comes back field for field: %j", (details) => {
    expect(amountDetailsFromProto(wire("FeeAmountDetails", amountDetailsToProto(details)))).toStrictEqual(details);
  });
});
