import { describe, expect, it } from "vitest";
import { invoiceDates, invoicingTerms } from "./invoicing-terms";
import { customerFixture } from "./test-fixtures";

const entity = {
  code: "default",
  id: "be_1",
  name: "Acme",
  document_numbering: "per_customer",
  document_number_prefix: "ACM",
  finalize_zero_amount_invoice: false,
  invoice_grace_period: 2,
  net_payment_term: 30,
  subscription_invoice_issuing_date_anchor: "current_period_end",
  subscription_invoice_issuing_date_adjustment: "keep_anchor",
  timezone: "Europe/Paris",
  taxes: [],
};
const config = (grace: number | null) => ({
  invoice_grace_period: grace,
  subscription_invoice_issuing_date_anchor: null,
  subscription_invoice_issuing_date_adjustment: null,
});

describe("invoicing terms", () => {
  it("takes the customer's settings, else its billing entity's", () => {
    expect(invoicingTerms(customerFixture(), entity)).toMatchObject({
      graceDays: 2,
      netPaymentTerm: 30,
      finalizeZero: false,
      anchor: "current_period_end",
    });
    const own = customerFixture({
      net_payment_term: 0,
      finalize_zero_amount_invoice: "finalize",
      billing_configuration: config(0),
    });
    expect(invoicingTerms(own, entity)).toMatchObject({ graceDays: 0, netPaymentTerm: 0, finalizeZero: true });
    expect(invoicingTerms(customerFixture({ finalize_zero_amount_invoice: "skip" }), null)).toMatchObject({
      graceDays: 0,
      finalizeZero: false,
    });
  });

  it("dates a periodic invoice by anchor and adjustment, a termination by the grace period", () => {
    const terms = invoicingTerms(customerFixture({ billing_configuration: config(0) }), entity);
    // current_period_end + keep_anchor: the day before the billing day, even without a grace period
    expect(invoiceDates(terms, new Date("2024-02-01T00:00:00Z"), ["subscription_periodic"])).toMatchObject({
      issuing_date: "2024-01-31",
      payment_due_date: "2024-03-01",
      expected_finalization_date: null,
    });
    const graced = invoicingTerms(customerFixture({ billing_configuration: config(3) }), null);
    expect(invoiceDates(graced, new Date("2024-01-10T12:00:00Z"), ["subscription_terminating"])).toMatchObject({
      issuing_date: "2024-01-13",
      expected_finalization_date: "2024-01-13",
      grace_ends_at: new Date("2024-01-13T00:00:00Z"),
    });
  });
});
