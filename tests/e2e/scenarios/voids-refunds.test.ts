import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@billing/testkit";
import { advanceClock, scenarioPlatform } from "../../support/sandbox";
import {
  addOn,
  applyCoupon,
  coupon,
  customer,
  feeOf,
  invoicesOf,
  ok,
  plan,
  subscribe,
  type Api,
  type Json,
} from "../../support/scenario";
import { WebhookReceiver } from "../../support/webhook-receiver";

// Voids that give back what the invoice consumed, refunds paid back through the payment provider,
// and the invoice events Lago sends (issue 12), on sandbox organizations. Lago's rules
// (Invoices::VoidService): a void recredits every coupon credit of the invoice; it gives the
// prepaid credits back to the wallets only when it issues no credit note (with one, the note is
// worth them). Refunds (CreditNotes::Refunds::*): paid back on the invoice's payment through its
// provider; a refused one sets refund_status failed and sends credit_note.refund_failure.
// refunds a provider leaves pending are asked about again after a second (a minute by default)
const platform = scenarioPlatform("scn_voids_refunds", { PAYMENT_REFUND_RECHECK_MS: "1000" });
const receiver = new WebhookReceiver();
const CARDS = { succeeds: "4242424242424242", refundFails: "4000000000005126", refundPending: "4000000000007726" };

beforeAll(() => receiver.start());
afterAll(() => receiver.stop());

const invoice = async (as: Api, id: string) => (await ok(as("GET", `/invoices/${id}`))).invoice as Json;
const appliedCoupons = async (as: Api) =>
  (await ok(as("GET", "/applied_coupons?external_customer_id=acme"))).applied_coupons as Json[];
const wallet = async (as: Api, id: string) => (await ok(as("GET", `/wallets/${id}`))).wallet as Json;
const transactions = async (as: Api, id: string) =>
  (await ok(as("GET", `/wallets/${id}/wallet_transactions`))).wallet_transactions as Json[];
const creditNote = async (as: Api, id: string) => (await ok(as("GET", `/credit_notes/${id}`))).credit_note as Json;
/** The receiver verifies this organization's signatures (one organization's deliveries at a time). */
async function trustKeys(as: Api): Promise<void> {
  receiver.keys.hmacKey = (await ok(as("GET", "/webhooks/hmac_key"))).webhook.hmac_key as string;
}
const arrived = async (path: string, type: string) =>
  (await waitFor(() => receiver.at(path).find((d) => d.payload.webhook_type === type), {
    what: `${type} at ${path}`,
    timeoutMs: 30_000,
  }))!;
/** The check's first truthy answer (it fails the test after 30 s). */
const until = async <T>(what: string, check: () => Promise<T | undefined>): Promise<T> =>
  (await waitFor(check, { what, timeoutMs: 30_000 }))!;

describe("voids give back what the invoice consumed", () => {
  // 10.00 a month in arrears; a 3.00 coupon used once; a wallet of 5.00 granted. Each month's
  // invoice: fees 1,000, coupons 300, prepaid credits 500, total 200.
  it("recredits the coupon and the wallet on a void without a credit note, only the coupon on one with a credit note, each once", async () => {
    const as = await platform.story("Void gives back", "2024-01-01T00:00:00Z");
    await plan(as, "basic", { amount_cents: 1_000 });
    await coupon(as, "three", {
      coupon_type: "fixed_amount",
      amount_cents: 300,
      amount_currency: "EUR",
      frequency: "once",
    });
    await applyCoupon(as, "acme", "three");
    const w = (
      await ok(
        as("POST", "/wallets", {
          wallet: { external_customer_id: "acme", currency: "EUR", rate_amount: "1", granted_credits: "5" },
        }),
      )
    ).wallet as Json;
    await subscribe(as, "acme", "basic", "sub_1");
    await advanceClock(as, "2024-02-01T00:30:00Z");
    const [february] = await invoicesOf(as, "acme");
    expect(february).toMatchObject({
      status: "finalized",
      fees_amount_cents: 1_000,
      coupons_amount_cents: 300,
      prepaid_credit_amount_cents: 500,
      total_amount_cents: 200,
    });
    expect(await appliedCoupons(as)).toEqual([
      expect.objectContaining({ status: "terminated", amount_cents_remaining: 0 }),
    ]);
    expect(await wallet(as, w.svc_id as string)).toMatchObject({ balance_cents: 0, consumed_credits: "5.0" });

    // voided without a credit note: the coupon's 3.00 and the wallet's 5.00 come back
    const voided = (await ok(as("POST", `/invoices/${february!.svc_id}/void`, {}))).invoice as Json;
    expect(voided).toMatchObject({ status: "voided", total_due_amount_cents: 0 });
    expect(await appliedCoupons(as)).toEqual([
      expect.objectContaining({ status: "active", amount_cents_remaining: 300 }),
    ]);
    expect(await wallet(as, w.svc_id as string)).toMatchObject({
      balance_cents: 500,
      credits_balance: "5.0",
      consumed_credits: "0.0",
    });
    const back = (await transactions(as, w.svc_id as string)).filter((t) => t.svc_voided_invoice_id);
    expect(back).toEqual([
      expect.objectContaining({
        transaction_status: "granted",
        transaction_type: "inbound",
        amount: "5.00",
        status: "settled",
        svc_voided_invoice_id: february!.svc_id,
      }),
    ]);
    // a second void is refused and gives nothing more
    expect(await as("POST", `/invoices/${february!.svc_id}/void`, {})).toMatchObject({
      status: 405,
      body: { code: "not_voidable" },
    });
    expect(await wallet(as, w.svc_id as string)).toMatchObject({ balance_cents: 500 });

    // March takes them again
    await advanceClock(as, "2024-03-01T00:30:00Z");
    const march = (await invoicesOf(as, "acme")).find((i) => i.issuing_date === "2024-03-01")!;
    expect(march).toMatchObject({
      status: "finalized",
      coupons_amount_cents: 300,
      prepaid_credit_amount_cents: 500,
      total_amount_cents: 200,
    });
    expect(await wallet(as, w.svc_id as string)).toMatchObject({ balance_cents: 0 });

    // voided with a credit note: the coupon comes back, the wallet does not (the note is worth it)
    await ok(
      as("POST", `/invoices/${march.svc_id}/void`, { generate_credit_note: true, credit_amount: 0, refund_amount: 0 }),
    );
    expect(await appliedCoupons(as)).toEqual([
      expect.objectContaining({ status: "active", amount_cents_remaining: 300 }),
    ]);
    expect(await wallet(as, w.svc_id as string)).toMatchObject({ balance_cents: 0, consumed_credits: "5.0" });
    expect((await invoice(as, march.svc_id as string)).status).toBe("voided");
  });
});

describe("refunds through the payment provider", () => {
  it("pays a credit note's refund back on the invoice's payment: succeeded, or failed with Lago's credit_note.refund_failure", async () => {
    const { as, organization_id } = await platform.sandbox("Refunds", "2024-01-01T00:00:00Z");
    await trustKeys(as);
    await ok(
      as("POST", "/webhook_endpoints", {
        webhook_endpoint: {
          webhook_url: `${receiver.url}/refunds`,
          event_types: ["credit_note.refund_failure", "credit_note.generated", "invoice.generated"],
        },
      }),
    );
    await customer(as, "acme", {
      billing_configuration: { payment_provider: "sandbox", provider_customer_id: CARDS.succeeds },
    });
    await customer(as, "refuser", {
      billing_configuration: { payment_provider: "sandbox", provider_customer_id: CARDS.refundFails },
    });
    await plan(as, "basic", { amount_cents: 1_000 });
    await subscribe(as, "acme", "basic", "sub_1");
    await subscribe(as, "refuser", "basic", "sub_2");
    await advanceClock(as, "2024-02-01T00:30:00Z");
    const paid = async (externalId: string) => {
      const [first] = await invoicesOf(as, externalId);
      return until(`${externalId}'s invoice paid by the sandbox provider`, async () => {
        const current = await invoice(as, first!.svc_id as string);
        return current.payment_status === "succeeded" ? current : undefined;
      });
    };

    const acme = await paid("acme");
    const note = (
      await ok(
        as("POST", "/credit_notes", {
          credit_note: {
            invoice_id: acme.svc_id,
            reason: "other",
            refund_amount_cents: 400,
            items: [{ fee_id: feeOf(acme, "subscription").svc_id, amount_cents: 400 }],
          },
        }),
      )
    ).credit_note as Json;
    expect(note).toMatchObject({ refund_amount_cents: 400, refund_status: "pending" });
    const refunded = await until("the refund's outcome on the credit note", async () => {
      const current = await creditNote(as, note.svc_id as string);
      return current.refund_status === "pending" ? undefined : current;
    });
    expect(refunded).toMatchObject({ refund_status: "succeeded" });
    // its PDF rendered (twice asked, concurrently): Lago's credit_note.generated, once
    await Promise.all([1, 2].map(() => ok(as("POST", `/credit_notes/${note.svc_id}/download`))));
    await ok(as("POST", `/credit_notes/${note.svc_id}/download`));
    expect((await arrived("/refunds", "credit_note.generated")).payload.credit_note).toMatchObject({
      svc_id: note.svc_id,
      refund_status: "succeeded",
    });
    // the invoice's too: Lago's invoice.generated, once
    await Promise.all([1, 2].map(() => ok(as("POST", `/invoices/${acme.svc_id}/download`))));
    await ok(as("POST", `/invoices/${acme.svc_id}/download`));
    expect((await arrived("/refunds", "invoice.generated")).payload).toMatchObject({
      webhook_type: "invoice.generated",
      object_type: "invoice",
      invoice: { svc_id: acme.svc_id },
    });

    const refuser = await paid("refuser");
    const refused = (
      await ok(
        as("POST", "/credit_notes", {
          credit_note: {
            invoice_id: refuser.svc_id,
            reason: "other",
            refund_amount_cents: 1_000,
            items: [{ fee_id: feeOf(refuser, "subscription").svc_id, amount_cents: 1_000 }],
          },
        }),
      )
    ).credit_note as Json;
    const failure = await arrived("/refunds", "credit_note.refund_failure");
    expect(failure.payload).toMatchObject({
      webhook_type: "credit_note.refund_failure",
      object_type: "credit_note_payment_provider_refund_error",
      organization_id,
      credit_note_payment_provider_refund_error: {
        svc_credit_note_id: refused.svc_id,
        external_customer_id: "refuser",
        provider_customer_id: CARDS.refundFails,
        payment_provider: "sandbox",
        provider_error: { message: "Refund failed to perform", error_code: "charge_not_refundable" },
      },
    });
    expect(
      await until("refund_status failed", async () => {
        const current = await creditNote(as, refused.svc_id as string);
        return current.refund_status === "failed" ? current : undefined;
      }),
    ).toMatchObject({ refund_status: "failed" });
    // one failure webhook, however the refund request was delivered
    expect(receiver.at("/refunds").filter((d) => d.payload.webhook_type === "credit_note.refund_failure")).toHaveLength(
      1,
    );

    // a provider that settles refunds later: pending at first, succeeded once the sweeper asks again
    await customer(as, "patient", {
      billing_configuration: { payment_provider: "sandbox", provider_customer_id: CARDS.refundPending },
    });
    await subscribe(as, "patient", "basic", "sub_3");
    await advanceClock(as, "2024-03-01T00:30:00Z");
    const [patientInvoice] = await invoicesOf(as, "patient");
    const patientPaid = await until("patient's invoice paid", async () => {
      const current = await invoice(as, patientInvoice!.svc_id as string);
      return current.payment_status === "succeeded" ? current : undefined;
    });
    const later = (
      await ok(
        as("POST", "/credit_notes", {
          credit_note: {
            invoice_id: patientPaid.svc_id,
            reason: "other",
            refund_amount_cents: 300,
            items: [{ fee_id: feeOf(patientPaid, "subscription").svc_id, amount_cents: 300 }],
          },
        }),
      )
    ).credit_note as Json;
    expect(later).toMatchObject({ refund_status: "pending" });
    expect(
      await until("the later refund settled", async () => {
        const current = await creditNote(as, later.svc_id as string);
        return current.refund_status === "pending" ? undefined : current;
      }),
    ).toMatchObject({ refund_status: "succeeded" });
    expect(receiver.at("/refunds").filter((d) => d.payload.webhook_type === "credit_note.generated")).toHaveLength(1);
    expect(receiver.at("/refunds").filter((d) => d.payload.webhook_type === "invoice.generated")).toHaveLength(1);
  });
});

describe("credit notes on a credit (wallet top-up) invoice", () => {
  // Lago: only while the wallet is active; paid, a refund of credits still in the wallet (never a
  // credit), the wallet's credits voided as much; the refund paid back through the provider.
  it("refunds a paid top-up: the wallet loses those credits once, the provider pays them back; a credit is refused", async () => {
    const { as } = await platform.sandbox("Credit invoice note", "2024-01-01T00:00:00Z");
    await customer(as, "acme", {
      billing_configuration: { payment_provider: "sandbox", provider_customer_id: CARDS.succeeds },
    });
    const w = (
      await ok(
        as("POST", "/wallets", {
          wallet: { external_customer_id: "acme", currency: "EUR", rate_amount: "1", paid_credits: "20" },
        }),
      )
    ).wallet as Json;
    const topUp = await until("the top-up invoice paid by the sandbox provider", async () => {
      const [credit] = (await invoicesOf(as, "acme")).filter((i) => i.invoice_type === "credit");
      return credit?.payment_status === "succeeded" ? credit : undefined;
    });
    await until("the paid credits settled", async () =>
      (await wallet(as, w.svc_id as string)).balance_cents === 2_000 ? true : undefined,
    );
    const fee = (topUp.fees as Json[])[0]!;

    expect(
      await as("POST", "/credit_notes", {
        credit_note: {
          invoice_id: topUp.svc_id,
          credit_amount_cents: 500,
          items: [{ fee_id: fee.svc_id, amount_cents: 500 }],
        },
      }),
    ).toMatchObject({ status: 422, body: { error_details: { credit_amount_cents: ["cannot_credit_invoice"] } } });
    expect(
      await as("POST", "/credit_notes", {
        credit_note: {
          invoice_id: topUp.svc_id,
          refund_amount_cents: 2_100,
          items: [{ fee_id: fee.svc_id, amount_cents: 2_100 }],
        },
      }),
    ).toMatchObject({ status: 422 });

    const note = (
      await ok(
        as("POST", "/credit_notes", {
          credit_note: {
            invoice_id: topUp.svc_id,
            reason: "other",
            refund_amount_cents: 1_200,
            items: [{ fee_id: fee.svc_id, amount_cents: 1_200 }],
          },
        }),
      )
    ).credit_note as Json;
    expect(note).toMatchObject({
      refund_amount_cents: 1_200,
      credit_amount_cents: 0,
      total_amount_cents: 1_200,
      refund_status: "pending",
    });
    expect(await wallet(as, w.svc_id as string)).toMatchObject({ balance_cents: 800 });
    const voided = (await transactions(as, w.svc_id as string)).filter((t) => t.svc_credit_note_id === note.svc_id);
    expect(voided).toEqual([
      expect.objectContaining({
        transaction_status: "voided",
        transaction_type: "outbound",
        amount: "12.00",
        status: "settled",
      }),
    ]);
    expect(
      await until("the top-up's refund paid back", async () => {
        const current = await creditNote(as, note.svc_id as string);
        return current.refund_status === "pending" ? undefined : current;
      }),
    ).toMatchObject({ refund_status: "succeeded" });
    // more than the 8.00 left in the wallet: refused
    expect(
      await as("POST", "/credit_notes", {
        credit_note: {
          invoice_id: topUp.svc_id,
          refund_amount_cents: 801,
          items: [{ fee_id: fee.svc_id, amount_cents: 801 }],
        },
      }),
    ).toMatchObject({
      status: 422,
      body: { error_details: { refund_amount_cents: ["higher_than_remaining_invoice_amount"] } },
    });
    expect(await wallet(as, w.svc_id as string)).toMatchObject({ balance_cents: 800 });
  });
});

describe("invoice events Lago sends", () => {
  it("invoice.one_off_created for a one-off invoice (not invoice.created), invoice.deleted for a deleted draft", async () => {
    const { as } = await platform.sandbox("Invoice events", "2024-01-01T00:00:00Z");
    await trustKeys(as);
    await ok(
      as("POST", "/webhook_endpoints", {
        webhook_endpoint: {
          webhook_url: `${receiver.url}/invoices`,
          event_types: ["invoice.one_off_created", "invoice.created", "invoice.deleted"],
        },
      }),
    );
    await customer(as, "acme", { billing_configuration: { invoice_grace_period: 3 } });
    await addOn(as, "setup", "Setup", 5_000);
    const oneOff = (
      await ok(
        as("POST", "/invoices", {
          invoice: { external_customer_id: "acme", currency: "EUR", fees: [{ add_on_code: "setup", units: 2 }] },
        }),
      )
    ).invoice as Json;
    expect(oneOff).toMatchObject({ invoice_type: "one_off", status: "finalized", fees_amount_cents: 10_000 });
    expect((await arrived("/invoices", "invoice.one_off_created")).payload.invoice).toMatchObject({
      svc_id: oneOff.svc_id,
      invoice_type: "one_off",
    });

    await plan(as, "basic", { amount_cents: 1_000 });
    await subscribe(as, "acme", "basic", "sub_1");
    await advanceClock(as, "2024-02-01T00:30:00Z");
    const draft = (await invoicesOf(as, "acme")).find((i) => i.status === "draft")!;
    await ok(as("DELETE", `/invoices/${draft.svc_id}`));
    expect((await arrived("/invoices", "invoice.deleted")).payload.invoice).toMatchObject({
      svc_id: draft.svc_id,
      status: "deleted",
    });
    // the one-off was announced once, as one_off_created only
    const created = receiver
      .at("/invoices")
      .filter((d) => (d.payload.invoice as Json | undefined)?.svc_id === oneOff.svc_id)
      .map((d) => d.payload.webhook_type);
    expect(created).toEqual(["invoice.one_off_created"]);
  });
});
