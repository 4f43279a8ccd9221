import { describe, expect, it } from "vitest";
import { finalizedInvoice, invoiceIdOf, newInvoice, withCustomSections } from "./compose-invoice";
import { billLine } from "./invoice-lines";
import { invoicingTerms } from "./invoicing-terms";
import { copyFixture, customerFixture } from "./test-fixtures";

const copy = copyFixture({ started_at: "2024-01-01T00:00:00.000Z", subscription_at: "2024-01-01T00:00:00.000Z" });
const billedAt = new Date("2024-02-01T00:00:00Z");
const line = { copy, ...billLine(copy, { at: billedAt, reason: "subscription_periodic" }), chargeFees: [] };
const entity = {
  code: "default",
  id: "be_0000-9f3a",
  name: "Acme",
  document_numbering: "per_customer",
  document_number_prefix: null,
  finalize_zero_amount_invoice: true,
  invoice_grace_period: 0,
  net_payment_term: 15,
  subscription_invoice_issuing_date_anchor: null,
  subscription_invoice_issuing_date_adjustment: null,
  timezone: "UTC",
  taxes: [],
};

function invoice(grace: number | null) {
  const customer = customerFixture({
    billing_configuration: {
      invoice_grace_period: grace,
      subscription_invoice_issuing_date_anchor: null,
      subscription_invoice_issuing_date_adjustment: null,
    },
  });
  return newInvoice({
    organizationId: "org_1",
    customer: { id: customer.svc_id, customer },
    entity,
    terms: invoicingTerms(customer, entity),
    billedAt,
    part: 0,
    sandbox: true,
    lines: [line],
    now: new Date("2024-02-01T00:00:01Z"),
  });
}

describe("a new invoice", () => {
  it("has an id derived from its customer and billing instant: a retry or a replica writes the same one", () => {
    expect(invoice(null).id).toBe(invoiceIdOf("org_1", "cus_1", billedAt, 0));
    expect(invoiceIdOf("org_1", "cus_1", billedAt, 1)).not.toBe(invoice(null).id);
  });

  it("is finalized at once without a grace period; a draft numbered PREFIX-DRAFT with one", () => {
    expect(invoice(null)).toMatchObject({
      status: "generating",
      finalize_at: billedAt,
      number: "ACM-9F3A-DRAFT",
      payment_due_date: "2024-02-16",
      net_payment_term: 15,
    });
    expect(invoice(3)).toMatchObject({
      status: "draft",
      issuing_date: "2024-02-04",
      expected_finalization_date: "2024-02-04",
      finalize_at: new Date("2024-02-04T00:00:00Z"),
      payment_due_date: "2024-02-19",
    });
  });

  it("is finalized with the credits consumed, its number and its payment status", () => {
    const draft = invoice(3);
    const coupon = { id: "c", coupon_type: "fixed_amount" as const, frequency: "once" as const, amount_cents: 500 };
    const final = finalizedInvoice(draft, {
      fees: draft.fees,
      consumed: [{ coupon, amount_cents: 500 }],
      credits: [
        {
          id: "cr",
          applied_coupon_id: "c",
          amount_cents: 500,
          currency: "EUR",
          item: { id: "cp", type: "coupon", code: "w", name: "W" },
        },
      ],
      prepaid: [],
      numbered: { number: "ACM-9F3A-007-001", sequential_id: 1 },
      customer: draft.customer,
      dates: null,
      now: new Date("2024-02-04T00:00:00Z"),
    });
    expect(final).toMatchObject({
      status: "finalized",
      payment_status: "pending",
      number: "ACM-9F3A-007-001",
      sequential_id: 1,
      finalize_at: null,
      expected_finalization_date: null,
    });
    expect(final.amounts).toMatchObject({
      fees_amount_cents: 3_100,
      coupons_amount_cents: 500,
      total_amount_cents: 2_600,
    });
    const closed = finalizedInvoice(draft, {
      fees: [],
      consumed: [],
      credits: [],
      prepaid: [],
      numbered: null,
      customer: draft.customer,
      dates: null,
      now: new Date("2024-02-04T00:00:00Z"),
    });
    expect(closed).toMatchObject({
      status: "closed",
      payment_status: "succeeded",
      number: "ACM-9F3A-DRAFT",
      sequential_id: null,
    });
  });

  it("keeps the custom sections its plan fixed when finalized, under ids a retry derives again; a closed one keeps none", () => {
    const draft = invoice(3);
    const at = new Date("2024-02-04T00:00:00Z");
    const sections = [{ code: "eu_bank", name: "EU bank", display_name: "Bank details", details: "IBAN FR76" }];
    const finalize = (numbered: { number: string; sequential_id: number } | null) =>
      withCustomSections(
        finalizedInvoice(draft, {
          fees: draft.fees,
          consumed: [],
          credits: [],
          prepaid: [],
          numbered,
          customer: draft.customer,
          dates: null,
          now: at,
        }),
        sections,
        at,
      );
    const final = finalize({ number: "ACM-9F3A-007-001", sequential_id: 1 });
    expect(final.applied_custom_sections).toEqual([{ ...sections[0], id: expect.any(String), created_at: at }]);
    expect(finalize({ number: "ACM-9F3A-007-001", sequential_id: 1 }).applied_custom_sections).toEqual(
      final.applied_custom_sections,
    );
    expect(withCustomSections({ ...draft, status: "closed" }, sections, at).applied_custom_sections).toBeUndefined();
    // planned before sections were kept: none recorded (its document shows the customer's current ones)
    expect(withCustomSections(final, undefined, at)).toBe(final);
  });
});
