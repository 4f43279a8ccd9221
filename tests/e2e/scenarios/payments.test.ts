import { describe, expect, it } from "vitest";
import { waitFor } from "@billing/testkit";
import { advanceClock, scenarioPlatform } from "../../support/sandbox";
import { feeOf, invoicesOf, ok, plan, subscribe, type Api, type Json } from "../../support/scenario";

// Payments on sandbox organizations (the payments issue): manual payments, and the built-in
// `sandbox` provider whose outcome follows the customer's provider_customer_id like test card
// numbers. Frozen on Jan 1 2024; customer acme (EUR); Basic is 10.00 a month in arrears, so the
// February 1 invoice is 1,000 cents.
const platform = scenarioPlatform("scn_payments");
const CARDS = { succeeds: "4242424242424242", fails: "4000000000000002", requiresAction: "4000002500003155" };

async function februaryInvoice(as: Api): Promise<Json> {
  await plan(as, "basic", { amount_cents: 1_000 });
  await subscribe(as, "acme", "basic", "sub_1");
  await advanceClock(as, "2024-02-01T00:30:00Z");
  const [february] = await invoicesOf(as, "acme");
  expect(february).toMatchObject({ status: "finalized", total_amount_cents: 1_000 });
  return february!;
}

const invoice = async (as: Api, id: string) => (await ok(as("GET", `/invoices/${id}`))).invoice as Json;
const paymentsOf = async (as: Api, query: string) => (await ok(as("GET", `/payments?${query}`))).payments as Json[];
const sandboxCustomer = (card: string) => ({
  billing_configuration: { payment_provider: "sandbox", provider_customer_id: card },
});

describe("manual payments", () => {
  it("pays an invoice in two parts, refusing more than is due; a paid invoice takes no more", async () => {
    const as = await platform.story("Two parts", "2024-01-01T00:00:00Z");
    const february = await februaryInvoice(as);
    expect(february).toMatchObject({
      payment_status: "pending",
      total_paid_amount_cents: 0,
      total_due_amount_cents: 1_000,
    });

    const first = (
      await ok(
        as("POST", "/payments", {
          payment: { invoice_id: february.svc_id, amount_cents: 400, reference: "wire 1", paid_at: "2024-02-03" },
        }),
      )
    ).payment as Json;
    expect(first).toMatchObject({
      type: "manual",
      payment_status: "succeeded",
      amount_cents: 400,
      amount_currency: "EUR",
      invoice_ids: [february.svc_id],
      reference: "wire 1",
      next_action: {},
    });
    expect(await invoice(as, february.svc_id as string)).toMatchObject({
      payment_status: "pending",
      total_paid_amount_cents: 400,
      total_due_amount_cents: 600,
    });

    // more than the 600 still due: refused, nothing stored
    const tooMuch = await as("POST", "/payments", {
      payment: { invoice_id: february.svc_id, amount_cents: 700, reference: "wire 2" },
    });
    expect(tooMuch).toMatchObject({
      status: 422,
      body: { code: "validation_errors", error_details: { amount_cents: ["greater_than_invoice_remaining_amount"] } },
    });
    expect(await paymentsOf(as, `invoice_id=${february.svc_id}`)).toHaveLength(1);

    const second = (
      await ok(
        as("POST", "/payments", { payment: { invoice_id: february.svc_id, amount_cents: 600, reference: "wire 2" } }),
      )
    ).payment as Json;
    expect(await invoice(as, february.svc_id as string)).toMatchObject({
      payment_status: "succeeded",
      total_paid_amount_cents: 1_000,
      total_due_amount_cents: 0,
    });
    expect(
      (await as("POST", "/payments", { payment: { invoice_id: february.svc_id, amount_cents: 1, reference: "late" } }))
        .status,
    ).toBe(422);

    // reading them back: one by one (wrapped), listed newest first, by customer and by invoice
    expect((await ok(as("GET", `/payments/${second.svc_id}`))).payment).toEqual(second);
    // (the test clock stands still: both were made at the same instant)
    expect((await paymentsOf(as, "external_customer_id=acme")).map((p) => p.svc_id).sort()).toEqual(
      [second.svc_id, first.svc_id].sort(),
    );
    expect(await paymentsOf(as, "external_customer_id=nobody")).toEqual([]);
    expect(await as("GET", "/payments/00000000-0000-4000-8000-000000000000")).toMatchObject({
      status: 404,
      body: { code: "payment_not_found" },
    });
    // bad input: every problem at once
    expect(await as("POST", "/payments", { payment: { invoice_id: february.svc_id, amount_cents: 0 } })).toMatchObject({
      status: 422,
      body: { error_details: { amount_cents: expect.any(Array), reference: expect.any(Array) } },
    });
    expect(
      await as("POST", "/payments", {
        payment: { invoice_id: "00000000-0000-4000-8000-000000000000", amount_cents: 5, reference: "x" },
      }),
    ).toMatchObject({ status: 404, body: { code: "invoice_not_found" } });

    // another organization reaches none of it
    const other = await platform.story("Two parts, elsewhere", "2024-01-01T00:00:00Z");
    expect((await other("GET", `/payments/${first.svc_id}`)).status).toBe(404);
    expect(await paymentsOf(other, "external_customer_id=acme")).toEqual([]);
    expect(
      (await other("POST", "/payments", { payment: { invoice_id: february.svc_id, amount_cents: 1, reference: "x" } }))
        .status,
    ).toBe(404);
  });

  it("tells an invoice overdue once its due date passes unpaid on the test clock, and not once paid", async () => {
    const as = await platform.story("Overdue", "2024-01-01T00:00:00Z", { net_payment_term: 5 });
    const february = await februaryInvoice(as);
    expect(february).toMatchObject({ payment_due_date: "2024-02-06", payment_overdue: false });
    await advanceClock(as, "2024-02-06T12:00:00Z");
    expect(await invoice(as, february.svc_id as string)).toMatchObject({ payment_overdue: false });
    await advanceClock(as, "2024-02-07T00:30:00Z");
    expect(await invoice(as, february.svc_id as string)).toMatchObject({
      payment_overdue: true,
      payment_status: "pending",
    });
    await ok(
      as("POST", "/payments", {
        payment: { invoice_id: february.svc_id, amount_cents: 1_000, reference: "late wire" },
      }),
    );
    expect(await invoice(as, february.svc_id as string)).toMatchObject({
      payment_overdue: false,
      payment_status: "succeeded",
    });
  });
});

describe("the sandbox payment provider", () => {
  it("charges a finalized invoice at once, and the invoice is paid", async () => {
    const as = await platform.story("Sandbox succeeds", "2024-01-01T00:00:00Z", sandboxCustomer(CARDS.succeeds));
    const february = await februaryInvoice(as);
    await waitFor(async () => (await invoice(as, february.svc_id as string)).payment_status === "succeeded", {
      what: "the invoice paid by the provider",
    });
    const [payment] = await paymentsOf(as, `invoice_id=${february.svc_id}`);
    expect(payment).toMatchObject({
      type: "provider",
      payment_status: "succeeded",
      status: "succeeded",
      amount_cents: 1_000,
      payment_provider_type: "sandbox",
      provider_customer_id: CARDS.succeeds,
      provider_payment_id: expect.stringMatching(/^sbx_/),
      next_action: {},
    });
    expect(await paymentsOf(as, `invoice_id=${february.svc_id}`)).toHaveLength(1);
  });

  it("leaves a payment that requires action processing until the customer confirms it", async () => {
    const as = await platform.story(
      "Sandbox requires action",
      "2024-01-01T00:00:00Z",
      sandboxCustomer(CARDS.requiresAction),
    );
    const february = await februaryInvoice(as);
    const [payment] = await waitFor(
      async () => {
        const list = await paymentsOf(as, `invoice_id=${february.svc_id}`);
        return list.length && list[0]!.payment_status === "processing" ? list : null;
      },
      { what: "the processing payment" },
    );
    expect(payment!.next_action).toEqual({
      type: "redirect_to_url",
      redirect_to_url: {
        url: expect.stringContaining(`/api/v1/sandbox/payments/${payment!.svc_id}/confirm`),
        return_url: expect.any(String),
      },
    });
    expect(await invoice(as, february.svc_id as string)).toMatchObject({ payment_status: "pending" });

    const confirmed = (await ok(as("POST", `/sandbox/payments/${payment!.svc_id}/confirm`))).payment as Json;
    expect(confirmed).toMatchObject({ svc_id: payment!.svc_id, payment_status: "succeeded", next_action: {} });
    expect(await invoice(as, february.svc_id as string)).toMatchObject({
      payment_status: "succeeded",
      total_paid_amount_cents: 1_000,
    });
    // a second confirmation changes nothing
    expect((await ok(as("POST", `/sandbox/payments/${payment!.svc_id}/confirm`))).payment).toMatchObject({
      payment_status: "succeeded",
    });
    expect(await invoice(as, february.svc_id as string)).toMatchObject({ total_paid_amount_cents: 1_000 });
  });

  it("marks a declined payment failed; a retry with a working card pays the invoice", async () => {
    const as = await platform.story("Sandbox fails", "2024-01-01T00:00:00Z", sandboxCustomer(CARDS.fails));
    const february = await februaryInvoice(as);
    await waitFor(async () => (await invoice(as, february.svc_id as string)).payment_status === "failed", {
      what: "the failed payment",
    });
    expect(await paymentsOf(as, `invoice_id=${february.svc_id}`)).toMatchObject([
      { payment_status: "failed", status: "card_declined" },
    ]);

    await ok(as("POST", "/customers", { customer: { external_id: "acme", ...sandboxCustomer(CARDS.succeeds) } }));
    expect(await as("POST", `/invoices/${february.svc_id}/retry_payment`)).toMatchObject({ status: 200 });
    expect(await invoice(as, february.svc_id as string)).toMatchObject({
      payment_status: "succeeded",
      total_paid_amount_cents: 1_000,
    });
    expect((await paymentsOf(as, `invoice_id=${february.svc_id}`)).map((p) => p.payment_status).sort()).toEqual([
      "failed",
      "succeeded",
    ]);
    // nothing left to retry
    expect(await as("POST", `/invoices/${february.svc_id}/retry_payment`)).toMatchObject({ status: 405 });
  });
});

// Money is never taken twice (issue 29, story 1): a manual payment cannot land while a provider
// attempt for the same invoice waits for the customer; two manual payments of the whole amount
// cannot both land; a provider success the invoice can no longer take is an overpayment, shown
// on the payment and the invoice, and refunded through the provider.
describe("payments never take money twice", () => {
  const processingPayment = async (as: Api, invoiceId: string): Promise<Json> => {
    const [payment] = await waitFor(
      async () => {
        const list = await paymentsOf(as, `invoice_id=${invoiceId}`);
        return list.length && list[0]!.payment_status === "processing" ? list : null;
      },
      { what: "the processing payment" },
    );
    return payment!;
  };

  it("refuses a manual payment while the provider's attempt waits for the customer; the confirmation then pays once", async () => {
    const as = await platform.story(
      "Manual during requires action",
      "2024-01-01T00:00:00Z",
      sandboxCustomer(CARDS.requiresAction),
    );
    const february = await februaryInvoice(as);
    const attempt = await processingPayment(as, february.svc_id as string);

    const manual = await as("POST", "/payments", {
      payment: { invoice_id: february.svc_id, amount_cents: 1_000, reference: "wire" },
    });
    expect(manual).toMatchObject({
      status: 422,
      body: { code: "validation_errors", error_details: { invoice_id: ["payment_processing"] } },
    });
    expect(await paymentsOf(as, `invoice_id=${february.svc_id}`)).toHaveLength(1);

    await ok(as("POST", `/sandbox/payments/${attempt.svc_id}/confirm`));
    expect(await invoice(as, february.svc_id as string)).toMatchObject({
      payment_status: "succeeded",
      total_paid_amount_cents: 1_000,
      total_overpaid_amount_cents: 0,
    });
    // once paid, a manual payment is refused as before
    expect(
      (
        await as("POST", "/payments", {
          payment: { invoice_id: february.svc_id, amount_cents: 1_000, reference: "wire" },
        })
      ).status,
    ).toBe(422);
    const payments = await paymentsOf(as, `invoice_id=${february.svc_id}`);
    expect(payments.map((p) => [p.type, p.payment_status, p.amount_cents, p.overpaid_amount_cents])).toEqual([
      ["provider", "succeeded", 1_000, 0],
    ]);
  });

  it("lands one of two concurrent manual payments of the whole amount, and refuses the other", async () => {
    const as = await platform.story("Concurrent manual payments", "2024-01-01T00:00:00Z");
    const february = await februaryInvoice(as);
    const answers = await Promise.all(
      [1, 2, 3].map((n) =>
        as("POST", "/payments", {
          payment: { invoice_id: february.svc_id, amount_cents: 1_000, reference: `wire ${n}` },
        }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 422, 422]);
    expect(await invoice(as, february.svc_id as string)).toMatchObject({
      payment_status: "succeeded",
      total_paid_amount_cents: 1_000,
      total_due_amount_cents: 0,
    });
    expect(await paymentsOf(as, `invoice_id=${february.svc_id}`)).toHaveLength(1);
  });

  it("records a provider success beyond what is still due as an overpayment, shown and refunded through the provider", async () => {
    const as = await platform.story("Overpaid", "2024-01-01T00:00:00Z", sandboxCustomer(CARDS.requiresAction));
    const february = await februaryInvoice(as);
    const attempt = await processingPayment(as, february.svc_id as string);
    expect(attempt).toMatchObject({ amount_cents: 1_000 });
    // while the customer confirms, 400 of the invoice are offset by a credit note: 600 are due
    const fee = feeOf(february, "subscription");
    await ok(
      as("POST", "/credit_notes", {
        credit_note: {
          invoice_id: february.svc_id,
          offset_amount_cents: 400,
          items: [{ fee_id: fee.svc_id, amount_cents: 400 }],
        },
      }),
    );
    expect(await invoice(as, february.svc_id as string)).toMatchObject({ total_due_amount_cents: 600 });

    // the provider took 1,000: the invoice takes 600, the 400 beyond are the payment's overpayment, refunded
    await ok(as("POST", `/sandbox/payments/${attempt.svc_id}/confirm`));
    expect(await invoice(as, february.svc_id as string)).toMatchObject({
      payment_status: "succeeded",
      total_paid_amount_cents: 600,
      total_overpaid_amount_cents: 400,
      total_due_amount_cents: 0,
    });
    const refunded = await waitFor(
      async () => {
        const payment = (await ok(as("GET", `/payments/${attempt.svc_id}`))).payment as Json;
        return payment.overpayment_status === "refunded" ? payment : null;
      },
      { what: "the overpayment refunded" },
    );
    expect(refunded).toMatchObject({ payment_status: "succeeded", amount_cents: 1_000, overpaid_amount_cents: 400 });
    // a second confirmation changes nothing
    await ok(as("POST", `/sandbox/payments/${attempt.svc_id}/confirm`));
    expect(await invoice(as, february.svc_id as string)).toMatchObject({
      total_paid_amount_cents: 600,
      total_overpaid_amount_cents: 400,
    });
    expect(await paymentsOf(as, `invoice_id=${february.svc_id}`)).toHaveLength(1);
  });
});
