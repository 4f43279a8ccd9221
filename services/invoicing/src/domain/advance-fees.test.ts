import { describe, expect, it } from "vitest";
import type { AdvanceFeeData, TaxViewData } from "@billing/contracts";
import {
  advanceFeeDraft,
  advanceFeeInvoice,
  advanceFeeTaxer,
  advanceInvoiceIdOf,
  ownInvoice,
  taxedAdvanceFee,
} from "./advance-fees";
import { invoicingTerms } from "./invoicing-terms";
import { customerFixture, pricedAdvanceFeeFixture } from "./test-fixtures";

const tax = (code: string, rate: number): TaxViewData =>
  ({ svc_id: `tax_${code}`, code, name: code.toUpperCase(), rate, description: null }) as unknown as TaxViewData;

const priced = pricedAdvanceFeeFixture;

describe("pay-in-advance fees in invoicing", () => {
  it("gives an invoiceable charge's fee its own invoice, unless its paid fees are regrouped; a non-invoiceable one waits", () => {
    expect(ownInvoice(priced())).toBe(true);
    expect(ownInvoice(priced({ regroup_paid_fees: "invoice" }))).toBe(false);
    expect(ownInvoice(priced({ invoiceable: false }))).toBe(false);
    expect(advanceInvoiceIdOf("fee_1")).toBe(advanceInvoiceIdOf("fee_1"));
    expect(advanceInvoiceIdOf("fee_1")).not.toBe(advanceInvoiceIdOf("fee_2"));
  });

  it("selects the charge's taxes, else the plan's, else the customer's, else the billing entity's", () => {
    const customer = customerFixture({ taxes: [tax("cust", 5)] });
    expect(
      advanceFeeDraft(priced({ charge_taxes: [tax("ch", 20)], plan_taxes: [tax("pl", 10)] }), customer, [
        tax("be", 1),
      ]).taxes.map((t) => t.code),
    ).toEqual(["ch"]);
    expect(
      advanceFeeDraft(priced({ plan_taxes: [tax("pl", 10)] }), customer, [tax("be", 1)]).taxes.map((t) => t.code),
    ).toEqual(["pl"]);
    expect(advanceFeeDraft(priced(), customer, [tax("be", 1)]).taxes.map((t) => t.code)).toEqual(["cust"]);
    expect(advanceFeeDraft(priced(), customerFixture(), [tax("be", 1)]).taxes.map((t) => t.code)).toEqual(["be"]);
  });

  it("taxes a waiting fee at once: 12.00 at 20 % is 2.40", () => {
    const fee = taxedAdvanceFee(
      advanceFeeDraft(priced({ invoiceable: false, charge_taxes: [tax("vat", 20)] }), customerFixture(), []),
      "EUR",
    );
    expect(fee).toMatchObject({
      amount_cents: 1_200,
      taxes_amount_cents: 240,
      total_amount_cents: 1_440,
      pay_in_advance: true,
      events_count: 1,
      fee_type: "charge",
    });
  });

  it("taxes a batch's fees alike once, each as taxedAdvanceFee would alone", () => {
    const taxed = advanceFeeTaxer();
    const customer = customerFixture();
    const fees = [
      priced({ id: "a", charge_taxes: [tax("vat", 20)] }),
      priced({ id: "b", charge_taxes: [tax("vat", 20)] }),
      priced({ id: "c", amount_cents: 333, precise_amount_cents: "333.3333", charge_taxes: [tax("vat", 20)] }),
      priced({
        id: "d",
        amount_cents: 333,
        precise_amount_cents: "333.3333",
        charge_taxes: [tax("vat", 20), tax("local", 5.5)],
      }),
      priced({
        id: "e",
        amount_cents: 333,
        precise_amount_cents: "333.3333",
        charge_taxes: [tax("vat", 20)],
        currency: "JPY",
      }),
      priced({ id: "f" }),
    ];
    const draft = (p: AdvanceFeeData) => advanceFeeDraft(p, customer, []); // a fresh draft each time: the taxer completes the one it is given
    for (const p of [...fees, ...fees])
      expect(taxed(draft(p), p.currency)).toEqual(taxedAdvanceFee(draft(p), p.currency));
    expect(taxed(draft(fees[0]!), "EUR").applied_taxes).not.toBe(taxed(draft(fees[1]!), "EUR").applied_taxes); // each fee its own
  });

  it("issues the fee's invoice the event's day in the customer's zone, finalized at once", () => {
    const customer = customerFixture({
      applicable_timezone: "Asia/Tokyo",
      billing_configuration: {
        invoice_grace_period: 3,
        subscription_invoice_issuing_date_anchor: null,
        subscription_invoice_issuing_date_adjustment: null,
      },
    });
    const fee = priced();
    const invoice = advanceFeeInvoice({
      fee,
      draft: advanceFeeDraft(fee, customer, []),
      customer: { id: "cus_1", customer },
      entity: null,
      terms: invoicingTerms(customer, null),
      sandbox: false,
      now: new Date("2024-03-10T23:30:01.000Z"),
    });
    // 23:30 UTC on March 10 is March 11 in Tokyo; no grace period for a pay-in-advance fee's invoice
    expect(invoice).toMatchObject({
      id: advanceInvoiceIdOf("fee_1"),
      invoice_type: "subscription",
      status: "generating",
      issuing_date: "2024-03-11",
      expected_finalization_date: null,
    });
    expect(invoice.lines).toEqual([
      expect.objectContaining({ invoicing_reason: "in_advance_charge", external_subscription_id: "s1" }),
    ]);
    expect(invoice.fees.map((f) => [f.id, f.amount_cents])).toEqual([["fee_1", 1_200]]);
    expect(invoice.amounts.total_amount_cents).toBe(1_200);
  });
});
