import { describe, expect, it } from "vitest";
import { parseFields } from "../../http/validation";
import { couponCreateSchema } from "../coupons/validators";
import { topLevelKey } from "../../http/fields";
import { taxCreateSchema } from "./validators";

const details = (fn: () => unknown) => {
  try {
    fn();
    return null;
  } catch (err) {
    return (err as { details: unknown }).details;
  }
};

describe("catalog validators", () => {
  it("takes a tax rate as a decimal string or a number, and gives it on as a string", () => {
    expect(parseFields(taxCreateSchema, { name: "VAT", code: "vat", rate: 20.5 }).rate).toBe("20.5");
    expect(parseFields(taxCreateSchema, { name: "VAT", code: "vat", rate: " 20.0 " }).rate).toBe("20.0");
  });

  it("names a missing value mandatory and a wrong one invalid, keyed by the top-level field", () => {
    expect(details(() => parseFields(taxCreateSchema, { code: "vat", rate: "1e3" }, topLevelKey))).toEqual({
      name: ["value_is_mandatory"],
      rate: ["value_is_invalid"],
    });
    expect(
      details(() =>
        parseFields(
          couponCreateSchema,
          { name: "C", code: "c", coupon_type: "gift", applies_to: { plan_codes: [1] } },
          topLevelKey,
        ),
      ),
    ).toEqual({
      coupon_type: ["value_is_invalid"],
      frequency: ["value_is_mandatory"],
      expiration: ["value_is_mandatory"],
      applies_to: ["value_is_invalid"],
    });
  });
});
