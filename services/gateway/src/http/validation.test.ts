import type { AddressInfo } from "node:net";
import express from "express";
import { describe, expect, it } from "vitest";
import { AppError } from "@billing/errors";
import { applyHttpSettings } from "../app";
import { customerErrorKey, customerInputSchema } from "../routes/customers/validators";
import { toCustomerInputMessage } from "../routes/customers/to-message";
import { pageQuery, parseFields } from "./validation";

function details(input: unknown) {
  try {
    parseFields(customerInputSchema, input, customerErrorKey);
    return null;
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return (err as AppError).details;
  }
}

describe("request validation", () => {
  it("maps zod failures to Lago's field codes", () => {
    expect(details({})).toEqual({ external_id: ["value_is_mandatory"] });
    expect(details({ external_id: "" })).toEqual({ external_id: ["value_is_mandatory"] });
    expect(details({ external_id: 12 })).toEqual({ external_id: ["value_is_invalid"] });
    expect(details({ external_id: "x", country: "ZZ", currency: "XYZ1" })).toEqual({
      country: ["not_a_valid_country_code"],
      currency: ["value_is_invalid"],
    });
    expect(details({ external_id: "x", account_type: "boss" })).toEqual({ account_type: ["value_is_invalid"] });
    expect(details({ external_id: "x", name: "n".repeat(300) })).toEqual({ name: ["value_is_too_long"] });
    expect(details({ external_id: "x", net_payment_term: -2 })).toEqual({
      net_payment_term: ["value_is_out_of_range"],
    });
    expect(details({ external_id: "x", email: "a@b.c, nope" })).toEqual({ email: ["invalid_email_format"] });
  });

  it("names nested fields the way Lago does", () => {
    expect(
      details({
        external_id: "x",
        billing_configuration: { document_locale: "zz" },
        shipping_address: { country: "ZZ" },
      }),
    ).toEqual({
      document_locale: ["invalid_language_code"],
      shipping_country: ["not_a_valid_country_code"],
    });
    expect(details({ external_id: "x", metadata: [{ key: "k", value: "v" }] })).toEqual({
      metadata: ["value_is_mandatory"],
    });
  });

  it("accepts null for every optional field", () => {
    expect(
      details({ external_id: "x", name: null, country: null, billing_configuration: null, metadata: null }),
    ).toBeNull();
  });

  it("tells sent values from explicit nulls for the customer service", () => {
    const input = parseFields(customerInputSchema, {
      external_id: "x",
      name: "A",
      email: null,
      billing_configuration: { sync: true, document_locale: null },
    });
    expect(toCustomerInputMessage(input)).toMatchObject({
      external_id: "x",
      name: "A",
      null_fields: ["email"],
      metadata_set: false,
      tax_codes_set: false,
      billing_configuration: { sync: true, null_fields: ["document_locale"], provider_payment_methods_set: false },
      shipping_address: null,
    });
  });
});

describe("query parsing", () => {
  it("reads Lago's bracketed arrays, percent-encoded or not, and pagination", async () => {
    const app = express();
    applyHttpSettings(app);
    app.get("/q", (req, res) => void res.json({ query: req.query, page: pageQuery(req) }));
    const server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    const { port } = server.address() as AddressInfo;
    // the echo route above answers { query: req.query, page: pageQuery(req) }
    type Echo = { query: Record<string, unknown>; page: ReturnType<typeof pageQuery> };
    const get = async (qs: string) => (await (await fetch(`http://127.0.0.1:${port}/q?${qs}`)).json()) as Echo;
    try {
      expect((await get("coupon_code[]=a&coupon_code[]=b")).query.coupon_code).toEqual(["a", "b"]);
      expect((await get("coupon_code%5B%5D=a&coupon_code%5B%5D=b")).query.coupon_code).toEqual(["a", "b"]);
      expect((await get("coupon_code%5B%5D=only")).query.coupon_code).toEqual(["only"]);
      expect((await get("page=3&per_page=20")).page).toEqual({ page: 3, per_page: 20 });
      expect((await get("page=-1&per_page=abc")).page).toEqual({ page: 1, per_page: 100 });
      expect((await get("per_page=100000")).page).toEqual({ page: 1, per_page: 1000 });
    } finally {
      server.close();
    }
  });
});
