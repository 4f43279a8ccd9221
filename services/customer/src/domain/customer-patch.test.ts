import { describe, expect, it } from "vitest";
import { applyCustomerPatch, customerSlug, newCustomer, type CustomerPatch } from "./customer-patch";
import { customerViolations } from "./customer-rules";

const t0 = new Date("2026-01-01T00:00:00Z");
const t1 = new Date("2026-01-02T00:00:00Z");
const base = newCustomer({
  id: "id-1",
  organizationId: "org",
  externalId: "ext",
  sequentialId: 7,
  documentNumberPrefix: "ACM-1A2B",
  billingEntity: { id: "be", code: "default" },
  now: t0,
});

describe("customer patch", () => {
  it("starts with Lago's defaults", () => {
    expect(base).toMatchObject({
      slug: "ACM-1A2B-007",
      account_type: "customer",
      finalize_zero_amount_invoice: "inherit",
      skip_invoice_custom_sections: false,
      net_payment_term: null,
      name: null,
      metadata: [],
    });
    expect(customerViolations(base)).toBeNull();
  });

  it("keeps what was not sent and clears what was sent as null", () => {
    const named = applyCustomerPatch(base, { name: "A", city: "Paris" }, t0);
    const next = applyCustomerPatch(named, { city: null }, t1);
    expect([next.name, next.city, next.updated_at]).toEqual(["A", null, t1]);
  });

  it("merges billing configuration and shipping address field by field", () => {
    const a = applyCustomerPatch(base, { billing_configuration: { payment_provider: "stripe", sync: true } }, t0);
    const b = applyCustomerPatch(
      a,
      { billing_configuration: { document_locale: "fr" }, shipping_address: { country: "FR" } },
      t1,
    );
    expect(b.billing_configuration).toMatchObject({ payment_provider: "stripe", sync: true, document_locale: "fr" });
    expect(b.shipping_address).toMatchObject({ country: "FR", city: null });
  });

  it("updates metadata by id, adds new items and drops the unsent", () => {
    const a = applyCustomerPatch(
      base,
      {
        metadata: [
          { key: "k1", value: "v1", display_in_invoice: true },
          { key: "k2", value: "v2", display_in_invoice: false },
        ],
      },
      t0,
    );
    const [m1] = a.metadata;
    const b = applyCustomerPatch(
      a,
      {
        metadata: [
          { id: m1!.id, key: "k1", value: "v1b", display_in_invoice: false },
          { key: "k3", value: "v3", display_in_invoice: true },
        ],
      },
      t1,
    );
    expect(b.metadata.map((m) => [m.key, m.value])).toEqual([
      ["k1", "v1b"],
      ["k3", "v3"],
    ]);
    expect(b.metadata[0]!.id).toBe(m1!.id);
    expect(b.metadata[0]!.created_at).toEqual(t0);
  });

  it("pads the slug to three digits", () => {
    expect(customerSlug("LAG-1234", 1)).toBe("LAG-1234-001");
    expect(customerSlug("LAG-1234", 1234)).toBe("LAG-1234-1234");
  });
});

describe("customer invariants", () => {
  it.each<[CustomerPatch, Record<string, string[]>]>([
    [{ country: "XX" }, { country: ["not_a_valid_country_code"] }],
    [{ currency: "EURO" }, { currency: ["value_is_invalid"] }],
    [{ timezone: "Nowhere/City" }, { timezone: ["invalid_timezone"] }],
    [{ email: "not-an-email" }, { email: ["invalid_email_format"] }],
    [{ account_type: "vendor" }, { account_type: ["value_is_invalid"] }],
    [{ net_payment_term: -1 }, { net_payment_term: ["value_is_invalid"] }],
    [{ shipping_address: { country: "QQ" } }, { shipping_country: ["not_a_valid_country_code"] }],
    [{ billing_configuration: { document_locale: "xx" } }, { document_locale: ["invalid_language_code"] }],
  ])("rejects %j", (patch, details) => {
    expect(customerViolations(applyCustomerPatch(base, patch, t1))).toEqual(details);
  });

  it("accepts Lago's GMT offsets and IANA aliases", () => {
    expect(customerViolations(applyCustomerPatch(base, { timezone: "GMT+12" }, t1))).toBeNull();
    expect(customerViolations(applyCustomerPatch(base, { timezone: "Asia/Kolkata" }, t1))).toBeNull();
  });
});
