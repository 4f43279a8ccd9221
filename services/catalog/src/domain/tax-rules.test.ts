import { describe, expect, it } from "vitest";
import { addOnViolations } from "./add-on-rules";
import { normalizedDecimal } from "./decimal";
import { taxViolations } from "./tax-rules";
import type { AddOn, Tax } from "./types";

const now = new Date("2026-01-01T00:00:00Z");
const base = { id: "x", organization_id: "o", code: "c", created_at: now, updated_at: now, deleted_at: null };
const tax = (over: Partial<Tax>): Tax => ({
  ...base,
  name: "VAT",
  description: null,
  rate: "20",
  applied_to_organization: false,
  ...over,
});
const addOn = (over: Partial<AddOn>): AddOn => ({
  ...base,
  name: "A",
  invoice_display_name: null,
  description: null,
  amount_cents: 0,
  amount_currency: "USD",
  tax_ids: [],
  ...over,
});

describe("tax and add-on rules", () => {
  it("wants a name, a code and a non-negative decimal rate", () => {
    expect(taxViolations(tax({}))).toBeNull();
    expect(taxViolations(tax({ name: " ", code: "", rate: "abc" }))).toEqual({
      name: ["value_is_mandatory"],
      code: ["value_is_mandatory"],
      rate: ["value_is_invalid"],
    });
    expect(taxViolations(tax({ rate: "-0.1" }))).toEqual({ rate: ["value_is_out_of_range"] });
  });

  it("writes rates as plain decimals", () => {
    expect([normalizedDecimal("20.50"), normalizedDecimal("1e2"), normalizedDecimal("x")]).toEqual([
      "20.5",
      "100",
      null,
    ]);
  });

  it("lets an add-on cost nothing but not less, in a real currency", () => {
    expect(addOnViolations(addOn({}))).toBeNull();
    expect(addOnViolations(addOn({ amount_cents: -1, amount_currency: "EURO" }))).toEqual({
      amount_cents: ["value_is_out_of_range"],
      amount_currency: ["value_is_invalid"],
    });
  });
});
