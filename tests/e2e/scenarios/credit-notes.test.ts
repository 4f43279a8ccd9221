import { describe, expect, it } from "vitest";
import { advanceClock, scenarioPlatform } from "../../support/sandbox";
import {
  addOn,
  applyCoupon,
  awaitInvoices,
  coupon,
  customer,
  events,
  feeOf,
  invoicesOf,
  metric,
  ok,
  plan,
  send,
  standard,
  subscribe,
  tax,
  type Api,
  type Json,
} from "../../support/scenario";

// Credit notes and voids on sandbox organizations (issue 12), with the numbers of Lago's
// spec/scenarios/credit_notes/credit_note_spec.rb: two monthly plans paid in advance, 179.00 and
// 399.00; a 10 % tax on the customer and, on the second plan, a 10 % plan tax besides; a forever
// coupon of 250.00 limited to the second plan. Each month's invoice: fees 578.00, coupons 250.00,
// taxes 47.70 (rate 14.54268), total 375.70.
const platform = scenarioPlatform("scn_credit_notes");

const invoice = async (as: Api, id: string) => (await ok(as("GET", `/invoices/${id}`))).invoice as Json;
const creditNote = async (as: Api, body: Json) =>
  (await ok(as("POST", "/credit_notes", { credit_note: body }))).credit_note as Json;
const estimate = async (as: Api, body: Json) =>
  (await ok(as("POST", "/credit_notes/estimate", { credit_note: body }))).estimated_credit_note as Json;

async function twoAdvancePlans(as: Api): Promise<void> {
  await tax(as, "org10", "10");
  await tax(as, "plan10", "10");
  await customer(as, "acme", { tax_codes: ["org10"] });
  await plan(as, "small", { amount_cents: 17_900, pay_in_advance: true });
  await plan(as, "large", { amount_cents: 39_900, pay_in_advance: true, tax_codes: ["plan10", "org10"] });
  await coupon(as, "large250", {
    coupon_type: "fixed_amount",
    amount_cents: 20_000,
    amount_currency: "EUR",
    frequency: "forever",
    applies_to: { plan_codes: ["large"] },
  });
  await applyCoupon(as, "acme", "large250", { amount_cents: 25_000 });
  await subscribe(as, "acme", "small", "sub_small");
  await subscribe(as, "acme", "large", "sub_large");
}

/** The invoice issued on `day` (YYYY-MM-DD). */
const issuedOn = (invoices: Json[], day: string) => {
  const found = invoices.filter((i) => i.issuing_date === day);
  expect(
    found,
    `invoices of ${day}: ${JSON.stringify(invoices.map((i) => [i.issuing_date, i.total_amount_cents]))}`,
  ).toHaveLength(1);
  return found[0]!;
};

describe("credit notes", () => {
  it("credits part of a coupon-discounted taxed invoice, and the next invoice consumes the credit once", async () => {
    const as = await platform.story("Partial credit note", "2024-01-01T00:00:00Z");
    await twoAdvancePlans(as);
    await advanceClock(as, "2024-02-01T00:30:00Z");
    const february = issuedOn(await invoicesOf(as, "acme"), "2024-02-01");
    expect(february).toMatchObject({
      status: "finalized",
      fees_amount_cents: 57_800,
      coupons_amount_cents: 25_000,
      taxes_amount_cents: 4_770,
      taxes_rate: 14.54268,
      total_amount_cents: 37_570,
    });
    const small = feeOf(february, "subscription", "small");
    const large = feeOf(february, "subscription", "large");
    expect(Number(large.precise_coupons_amount_cents)).toBe(25_000);
    await ok(
      as("POST", "/payments", { payment: { invoice_id: february.svc_id, amount_cents: 1_200, reference: "ref1" } }),
    );

    // Lago's estimate on both fees in full, then on 262.60 of the large one
    expect(
      await estimate(as, {
        invoice_id: february.svc_id,
        items: [
          { fee_id: small.svc_id, amount_cents: 17_900 },
          { fee_id: large.svc_id, amount_cents: 39_900 },
        ],
      }),
    ).toMatchObject({
      svc_invoice_id: february.svc_id,
      currency: "EUR",
      taxes_amount_cents: 4_770,
      sub_total_excluding_taxes_amount_cents: 32_800,
      max_creditable_amount_cents: 37_570,
      max_refundable_amount_cents: 1_200,
      coupons_adjustment_amount_cents: 25_000,
      taxes_rate: 14.54268,
    });
    expect(
      await estimate(as, { invoice_id: february.svc_id, items: [{ fee_id: large.svc_id, amount_cents: 26_260 }] }),
    ).toMatchObject({
      taxes_amount_cents: 1_961,
      sub_total_excluding_taxes_amount_cents: 9_806,
      max_creditable_amount_cents: 11_767,
      max_refundable_amount_cents: 1_200,
      coupons_adjustment_amount_cents: 16_454,
      taxes_rate: 20,
    });

    // the note Lago makes on 262.60 of the large fee (here credited, not refunded)
    const note = await creditNote(as, {
      invoice_id: february.svc_id,
      reason: "other",
      credit_amount_cents: 11_767,
      items: [{ fee_id: large.svc_id, amount_cents: 26_260 }],
    });
    expect(note).toMatchObject({
      svc_invoice_id: february.svc_id,
      invoice_number: february.number,
      number: `${february.number}-CN001`,
      sequential_id: 1,
      reason: "other",
      sub_total_excluding_taxes_amount_cents: 9_806,
      taxes_amount_cents: 1_961,
      taxes_rate: 20,
      coupons_adjustment_amount_cents: 16_454,
      credit_amount_cents: 11_767,
      refund_amount_cents: 0,
      offset_amount_cents: 0,
      total_amount_cents: 11_767,
      balance_amount_cents: 11_767,
      credit_status: "available",
      refund_status: null,
      issuing_date: "2024-02-01",
      currency: "EUR",
    });
    expect(note.items).toEqual([
      expect.objectContaining({ amount_cents: 26_260, fee: expect.objectContaining({ svc_id: large.svc_id }) }),
    ]);
    expect(note.applied_taxes.map((t: Json) => [t.tax_code, t.base_amount_cents, t.amount_cents]).sort()).toEqual([
      ["org10", 9_806, 981],
      ["plan10", 9_806, 981],
    ]);

    // a refund of what was paid, on the small fee (109.1 of tax on 10.91: one cent less asked is accepted)
    const refund = await creditNote(as, {
      invoice_id: february.svc_id,
      reason: "order_change",
      refund_amount_cents: 1_200,
      items: [{ fee_id: small.svc_id, amount_cents: 1_091 }],
    });
    expect(refund).toMatchObject({
      number: `${february.number}-CN002`,
      refund_amount_cents: 1_200,
      credit_amount_cents: 0,
      balance_amount_cents: 0,
      total_amount_cents: 1_200,
      refund_status: "pending",
    });
    expect(
      (await ok(as("PUT", `/credit_notes/${refund.svc_id}`, { credit_note: { refund_status: "succeeded" } })))
        .credit_note,
    ).toMatchObject({ refund_status: "succeeded" });

    // beyond what is left: Lago's error bodies, nothing stored
    expect(
      await as("POST", "/credit_notes", {
        credit_note: {
          invoice_id: february.svc_id,
          credit_amount_cents: 20_000,
          items: [{ fee_id: large.svc_id, amount_cents: 13_641 }],
        },
      }),
    ).toMatchObject({
      status: 422,
      body: { code: "validation_errors", error_details: { amount_cents: ["higher_than_remaining_fee_amount"] } },
    });
    expect(
      await as("POST", "/credit_notes", {
        credit_note: {
          invoice_id: february.svc_id,
          refund_amount_cents: 500,
          items: [{ fee_id: small.svc_id, amount_cents: 455 }],
        },
      }),
    ).toMatchObject({
      status: 422,
      body: { error_details: { refund_amount_cents: ["higher_than_remaining_invoice_amount"] } },
    });
    expect(
      await as("POST", "/credit_notes", {
        credit_note: {
          invoice_id: february.svc_id,
          credit_amount_cents: 9_999,
          items: [{ fee_id: small.svc_id, amount_cents: 100 }],
        },
      }),
    ).toMatchObject({ status: 422, body: { error_details: { base: ["does_not_match_item_amounts"] } } });
    expect(
      await as("POST", "/credit_notes", {
        credit_note: {
          invoice_id: february.svc_id,
          credit_amount_cents: 10,
          items: [{ fee_id: "00000000-0000-4000-8000-000000000000", amount_cents: 10 }],
        },
      }),
    ).toMatchObject({ status: 404, body: { code: "fee_not_found" } });
    expect(
      await as("POST", "/credit_notes", {
        credit_note: { invoice_id: "00000000-0000-4000-8000-000000000000", credit_amount_cents: 10, items: [] },
      }),
    ).toMatchObject({ status: 404, body: { code: "invoice_not_found" } });
    const listed = await ok(as("GET", "/credit_notes?external_customer_id=acme"));
    expect(listed.credit_notes.map((n: Json) => n.number).sort()).toEqual([note.number, refund.number]);
    expect(
      (await ok(as("GET", "/credit_notes?refund_status=succeeded"))).credit_notes.map((n: Json) => n.svc_id),
    ).toEqual([refund.svc_id]);
    expect((await ok(as("GET", "/customers/acme/credit_notes?credit_status=available"))).meta.total_count).toBe(2);

    // March: 375.70 again, less the note's 117.67 (after taxes)
    await advanceClock(as, "2024-03-01T00:30:00Z");
    const march = issuedOn(await invoicesOf(as, "acme"), "2024-03-01");
    expect(march).toMatchObject({
      fees_amount_cents: 57_800,
      coupons_amount_cents: 25_000,
      taxes_amount_cents: 4_770,
      sub_total_including_taxes_amount_cents: 37_570,
      credit_notes_amount_cents: 11_767,
      total_amount_cents: 25_803,
    });
    expect(march.credits).toContainEqual(
      expect.objectContaining({
        amount_cents: 11_767,
        before_taxes: false,
        item: expect.objectContaining({ type: "credit_note", svc_item_id: note.svc_id }),
      }),
    );
    const consumed = (await ok(as("GET", `/credit_notes/${note.svc_id}`))).credit_note as Json;
    expect(consumed).toMatchObject({ balance_amount_cents: 0, credit_status: "consumed" });
    expect(await as("PUT", `/credit_notes/${note.svc_id}/void`)).toMatchObject({
      status: 405,
      body: { code: "no_voidable_amount" },
    });

    // April: nothing left to take
    await advanceClock(as, "2024-04-01T00:30:00Z");
    expect(issuedOn(await invoicesOf(as, "acme"), "2024-04-01")).toMatchObject({
      credit_notes_amount_cents: 0,
      total_amount_cents: 37_570,
    });

    // another organization reaches none of it
    const other = await platform.story("Partial credit note, elsewhere", "2024-01-01T00:00:00Z");
    expect((await other("GET", `/credit_notes/${note.svc_id}`)).status).toBe(404);
    expect(
      (await other("POST", "/credit_notes/estimate", { credit_note: { invoice_id: february.svc_id, items: [] } }))
        .status,
    ).toBe(404);
  });

  it("a voided credit note gives nothing to the next invoice", async () => {
    const as = await platform.story("Voided credit note", "2024-01-01T00:00:00Z");
    await plan(as, "basic", { amount_cents: 1_000, pay_in_advance: true });
    await subscribe(as, "acme", "basic", "sub_1");
    await advanceClock(as, "2024-02-01T00:30:00Z");
    const february = issuedOn(await invoicesOf(as, "acme"), "2024-02-01");
    const note = await creditNote(as, {
      invoice_id: february.svc_id,
      credit_amount_cents: 400,
      items: [{ fee_id: feeOf(february, "subscription").svc_id, amount_cents: 400 }],
    });
    const voided = (await ok(as("PUT", `/credit_notes/${note.svc_id}/void`))).credit_note as Json;
    expect(voided).toMatchObject({ credit_status: "voided", balance_amount_cents: 0, credit_amount_cents: 400 });
    expect(await as("PUT", `/credit_notes/${note.svc_id}/void`)).toMatchObject({
      status: 405,
      body: { code: "no_voidable_amount" },
    });
    await advanceClock(as, "2024-03-01T00:30:00Z");
    expect(issuedOn(await invoicesOf(as, "acme"), "2024-03-01")).toMatchObject({
      credit_notes_amount_cents: 0,
      total_amount_cents: 1_000,
    });
  });
});

describe("offsets", () => {
  it("deducts an offset from what is due; once nothing is due the invoice is paid", async () => {
    const as = await platform.story("Offset", "2024-01-01T00:00:00Z");
    await plan(as, "basic", { amount_cents: 1_000 });
    await subscribe(as, "acme", "basic", "sub_1");
    await advanceClock(as, "2024-02-01T00:30:00Z");
    const [february] = await invoicesOf(as, "acme");
    const fee = feeOf(february!, "subscription");
    const first = await creditNote(as, {
      invoice_id: february!.svc_id,
      offset_amount_cents: 400,
      items: [{ fee_id: fee.svc_id, amount_cents: 400 }],
    });
    expect(first).toMatchObject({
      offset_amount_cents: 400,
      credit_amount_cents: 0,
      balance_amount_cents: 0,
      total_amount_cents: 400,
    });
    expect(await invoice(as, february!.svc_id as string)).toMatchObject({
      payment_status: "pending",
      total_due_amount_cents: 600,
    });
    expect(
      await as("POST", "/credit_notes", {
        credit_note: {
          invoice_id: february!.svc_id,
          offset_amount_cents: 700,
          items: [{ fee_id: fee.svc_id, amount_cents: 600 }],
        },
      }),
    ).toMatchObject({ status: 422, body: { code: "validation_errors" } });
    await creditNote(as, {
      invoice_id: february!.svc_id,
      offset_amount_cents: 600,
      items: [{ fee_id: fee.svc_id, amount_cents: 600 }],
    });
    expect(await invoice(as, february!.svc_id as string)).toMatchObject({
      payment_status: "succeeded",
      total_due_amount_cents: 0,
      total_paid_amount_cents: 0,
    });
  });
});

describe("voids", () => {
  // Lago's spec/scenarios/invoices/void_invoice_spec.rb: 10.00 a month in advance and a 20 % tax: 12.00
  it("voids with a credit note of what the client asks, the rest as a voided note", async () => {
    const as = await platform.story("Void with credit note", "2023-01-01T00:00:00Z");
    await tax(as, "vat20", "20");
    await customer(as, "acme", { tax_codes: ["vat20"] });
    await plan(as, "advance", { amount_cents: 1_000, pay_in_advance: true });
    await subscribe(as, "acme", "advance", "sub_1");
    const [january] = await awaitInvoices(as, "acme", 1);
    expect(january).toMatchObject({ total_amount_cents: 1_200 });
    const voided = (
      await ok(
        as("POST", `/invoices/${january!.svc_id}/void`, {
          generate_credit_note: true,
          credit_amount: 1_200,
          refund_amount: 0,
        }),
      )
    ).invoice as Json;
    expect(voided).toMatchObject({ status: "voided", total_due_amount_cents: 0 });
    const notes = (await ok(as("GET", "/credit_notes?external_customer_id=acme"))).credit_notes as Json[];
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      credit_status: "available",
      credit_amount_cents: 1_200,
      refund_amount_cents: 0,
      total_amount_cents: 1_200,
      balance_amount_cents: 1_200,
    });

    // February: half asked back as credit; the other half's note is voided at once
    await advanceClock(as, "2023-02-01T00:30:00Z");
    const february = (await invoicesOf(as, "acme")).find((i) => i.issuing_date === "2023-02-01")!;
    expect(february).toMatchObject({ total_amount_cents: 0, credit_notes_amount_cents: 1_200 });
    await advanceClock(as, "2023-03-01T00:30:00Z");
    const march = (await invoicesOf(as, "acme")).find((i) => i.issuing_date === "2023-03-01")!;
    expect(march).toMatchObject({ total_amount_cents: 1_200 });
    await ok(as("POST", `/invoices/${march.svc_id}/void`, { generate_credit_note: true, credit_amount: 600 }));
    const marchNotes = (
      (await ok(as("GET", `/credit_notes?invoice_number=${march.number}`))).credit_notes as Json[]
    ).sort((a, b) => a.sequential_id - b.sequential_id);
    expect(marchNotes.map((n) => [n.credit_amount_cents, n.credit_status, n.balance_amount_cents])).toEqual([
      [600, "available", 600],
      [600, "voided", 0],
    ]);
  });

  it("voids an invoice: nothing due any more; regenerated once; a paid one voided with a refund; a second void refused", async () => {
    const as = await platform.story("Void", "2024-01-01T00:00:00Z");
    await plan(as, "basic", { amount_cents: 1_000 });
    await subscribe(as, "acme", "basic", "sub_1");
    await advanceClock(as, "2024-02-01T00:30:00Z");
    const [february] = await invoicesOf(as, "acme");
    expect(february).toMatchObject({ status: "finalized", payment_status: "pending", total_due_amount_cents: 1_000 });
    const voided = (await ok(as("POST", `/invoices/${february!.svc_id}/void`, {}))).invoice as Json;
    expect(voided).toMatchObject({
      svc_id: february!.svc_id,
      status: "voided",
      total_due_amount_cents: 0,
      total_amount_cents: 1_000,
    });
    expect(await invoice(as, february!.svc_id as string)).toMatchObject({ status: "voided" });
    expect((await ok(as("GET", "/invoices?status=voided"))).invoices.map((i: Json) => i.svc_id)).toEqual([
      february!.svc_id,
    ]);
    expect(await as("POST", `/invoices/${february!.svc_id}/void`, {})).toMatchObject({
      status: 405,
      body: { code: "not_voidable" },
    });
    expect(
      (
        await as("POST", "/payments", {
          payment: { invoice_id: february!.svc_id, amount_cents: 100, reference: "late" },
        })
      ).status,
    ).toBe(422);
    expect(
      await as("PUT", `/invoices/${february!.svc_id}`, { invoice: { payment_status: "succeeded" } }),
    ).toMatchObject({ status: 405, body: { code: "update_on_voided_invoice" } });

    // regenerated: the same fees on a new invoice, finalized at once with a new number; a retry answers the same one
    const regenerated = (await ok(as("POST", `/invoices/${february!.svc_id}/regenerate`))).invoice as Json;
    expect(regenerated).toMatchObject({
      status: "finalized",
      payment_status: "pending",
      total_amount_cents: 1_000,
      fees_amount_cents: 1_000,
      issuing_date: "2024-02-01",
    });
    expect(regenerated.svc_id).not.toBe(february!.svc_id);
    expect(regenerated.number).not.toBe(february!.number);
    expect(feeOf(regenerated, "subscription")).toMatchObject({
      amount_cents: 1_000,
      from_date: feeOf(february!, "subscription").from_date,
    });
    expect(((await ok(as("POST", `/invoices/${february!.svc_id}/regenerate`))).invoice as Json).svc_id).toBe(
      regenerated.svc_id,
    );
    expect(await as("POST", `/invoices/${regenerated.svc_id}/regenerate`)).toMatchObject({
      status: 405,
      body: { code: "not_voided" },
    });

    // a paid invoice voided with a credit note refunding what was paid (Lago's void_invoice_spec)
    await advanceClock(as, "2024-03-01T00:30:00Z");
    const march = (await invoicesOf(as, "acme")).find((i) => i.issuing_date === "2024-03-01")!;
    await ok(
      as("POST", "/payments", { payment: { invoice_id: march.svc_id, amount_cents: 1_000, reference: "paid" } }),
    );
    expect(
      await as("POST", `/invoices/${march.svc_id}/void`, { generate_credit_note: true, refund_amount: 1_001 }),
    ).toMatchObject({
      status: 422,
      body: { error_details: { credit_refund_amount: ["total_amount_exceeds_invoice_amount"] } },
    });
    const voidedMarch = (
      await ok(
        as("POST", `/invoices/${march.svc_id}/void`, {
          generate_credit_note: true,
          credit_amount: 0,
          refund_amount: 1_000,
        }),
      )
    ).invoice as Json;
    expect(voidedMarch).toMatchObject({ status: "voided", payment_status: "succeeded" });
    const [refund] = (await ok(as("GET", `/credit_notes?invoice_number=${march.number}`))).credit_notes as Json[];
    expect(refund).toMatchObject({
      refund_amount_cents: 1_000,
      credit_amount_cents: 0,
      total_amount_cents: 1_000,
      refund_status: "pending",
    });
    expect(await as("POST", "/invoices/00000000-0000-4000-8000-000000000000/void", {})).toMatchObject({
      status: 404,
      body: { code: "invoice_not_found" },
    });
  });

  it("deletes a draft: no number taken, never shown again; a finalized invoice is not deletable", async () => {
    const as = await platform.story("Delete draft", "2024-01-01T00:00:00Z", {
      billing_configuration: { invoice_grace_period: 3 },
    });
    await plan(as, "basic", { amount_cents: 1_000 });
    await subscribe(as, "acme", "basic", "sub_1");
    await advanceClock(as, "2024-02-01T00:30:00Z");
    const [draft] = await invoicesOf(as, "acme");
    expect(draft).toMatchObject({ status: "draft", total_amount_cents: 1_000 });
    const deleted = (await ok(as("DELETE", `/invoices/${draft!.svc_id}`))).invoice as Json;
    expect(deleted).toMatchObject({ svc_id: draft!.svc_id, status: "deleted" });
    expect(await as("GET", `/invoices/${draft!.svc_id}`)).toMatchObject({
      status: 404,
      body: { code: "invoice_not_found" },
    });
    expect(await invoicesOf(as, "acme")).toEqual([]);
    // its grace period ends: nothing is finalized
    await advanceClock(as, "2024-02-05T00:30:00Z");
    expect(await invoicesOf(as, "acme")).toEqual([]);

    await advanceClock(as, "2024-03-04T00:30:00Z");
    const [march] = await invoicesOf(as, "acme");
    expect(march).toMatchObject({ status: "finalized" });
    expect(await as("DELETE", `/invoices/${march!.svc_id}`)).toMatchObject({
      status: 405,
      body: { code: "not_deletable" },
    });
  });
});

describe("one-off invoices", () => {
  // Lago's spec/scenarios/invoices/one_off_spec.rb: a 100.00 add-on; explicit tax codes win over
  // the customer's taxes, which win over the billing entity's.
  it("bills add-on fees at once: units × unit amount, taxes by precedence", async () => {
    const as = await platform.story("One-off", "2024-01-10T12:00:00Z");
    await tax(as, "vat_20", "20");
    await tax(as, "vat_10", "10");
    await tax(as, "customer_vat", "8");
    await customer(as, "acme", { tax_codes: ["customer_vat"] });
    await addOn(as, "setup", "Setup", 10_000);

    const explicit = (
      await ok(
        as("POST", "/invoices", {
          invoice: { external_customer_id: "acme", fees: [{ add_on_code: "setup", tax_codes: ["vat_20", "vat_10"] }] },
        }),
      )
    ).invoice as Json;
    expect(explicit).toMatchObject({
      invoice_type: "one_off",
      status: "finalized",
      payment_status: "pending",
      issuing_date: "2024-01-10",
      currency: "EUR",
      fees_amount_cents: 10_000,
      taxes_amount_cents: 3_000,
      total_amount_cents: 13_000,
      billing_periods: [],
    });
    expect(explicit.fees).toHaveLength(1);
    expect(explicit.fees[0]).toMatchObject({
      amount_cents: 10_000,
      units: "1.0",
      taxes_amount_cents: 3_000,
      item: { type: "add_on", code: "setup", item_type: "AddOn" },
    });
    expect(explicit.fees[0].applied_taxes.map((t: Json) => t.tax_code).sort()).toEqual(["vat_10", "vat_20"]);

    const derived = (
      await ok(as("POST", "/invoices", { invoice: { external_customer_id: "acme", fees: [{ add_on_code: "setup" }] } }))
    ).invoice as Json;
    expect(derived).toMatchObject({ taxes_amount_cents: 800, total_amount_cents: 10_800 });
    expect(derived.fees[0].applied_taxes.map((t: Json) => t.tax_code)).toEqual(["customer_vat"]);
    expect(derived.number).not.toBe(explicit.number);

    // 2.5 units at 19.99: 49.975 → 49.98, 10 % of it 5.00
    const priced = (
      await ok(
        as("POST", "/invoices", {
          invoice: {
            external_customer_id: "acme",
            fees: [
              {
                add_on_code: "setup",
                units: "2.5",
                unit_amount_cents: 1_999,
                description: "Onboarding",
                tax_codes: ["vat_10"],
              },
            ],
          },
        }),
      )
    ).invoice as Json;
    expect(priced).toMatchObject({ fees_amount_cents: 4_998, taxes_amount_cents: 500, total_amount_cents: 5_498 });
    expect(priced.fees[0]).toMatchObject({ units: "2.5", description: "Onboarding", precise_unit_amount: "19.99" });
    expect((await ok(as("GET", "/invoices?invoice_type=one_off"))).invoices).toHaveLength(3);

    // Lago's not-found answers; nothing stored
    expect(
      await as("POST", "/invoices", { invoice: { external_customer_id: "acme", fees: [{ add_on_code: "nope" }] } }),
    ).toMatchObject({ status: 404, body: { code: "add_on_not_found" } });
    expect(
      await as("POST", "/invoices", { invoice: { external_customer_id: "nobody", fees: [{ add_on_code: "setup" }] } }),
    ).toMatchObject({ status: 404, body: { code: "customer_not_found" } });
    expect(
      await as("POST", "/invoices", {
        invoice: { external_customer_id: "acme", fees: [{ add_on_code: "setup", tax_codes: ["nope"] }] },
      }),
    ).toMatchObject({ status: 404, body: { code: "tax_not_found" } });
    expect((await ok(as("GET", "/invoices?invoice_type=one_off"))).invoices).toHaveLength(3);
  });
});

describe("termination of a pay-in-advance plan", () => {
  // Lago's spec/scenarios/terminate_pay_in_advance_spec.rb: a 50.00 monthly plan paid in advance
  // and a 20 % tax; subscribed on Feb 8 2023 (21 of 28 days: 37.50 + 7.50 = 45.00), terminated the
  // same day: the 20 unused days are credited, 35.71 + 7.14 = 42.85.
  it("credits the unused days as a credit note the customer's next invoice consumes", async () => {
    const as = await platform.story("Terminate in advance", "2023-02-08T00:00:00Z");
    await tax(as, "vat20", "20");
    await customer(as, "acme", { tax_codes: ["vat20"] });
    await plan(as, "advance", { amount_cents: 5_000, pay_in_advance: true });
    await subscribe(as, "acme", "advance", "sub_1");
    const [starting] = await awaitInvoices(as, "acme", 1);
    expect(starting).toMatchObject({ fees_amount_cents: 3_750, taxes_amount_cents: 750, total_amount_cents: 4_500 });

    await ok(as("DELETE", "/subscriptions/sub_1"));
    const invoices = await awaitInvoices(as, "acme", 2);
    expect(invoices.find((i) => i.svc_id !== starting!.svc_id)).toMatchObject({ total_amount_cents: 0 });
    let notes: Json[] = [];
    for (let i = 0; i < 100 && notes.length === 0; i++) {
      notes = (await ok(as("GET", "/credit_notes?external_customer_id=acme"))).credit_notes as Json[];
      if (notes.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      svc_invoice_id: starting!.svc_id,
      number: `${starting!.number}-CN001`,
      reason: "order_change",
      sub_total_excluding_taxes_amount_cents: 3_571,
      taxes_amount_cents: 714,
      credit_amount_cents: 4_285,
      total_amount_cents: 4_285,
      balance_amount_cents: 4_285,
      credit_status: "available",
    });
    expect(notes[0]!.items).toEqual([
      expect.objectContaining({
        amount_cents: 3_571,
        fee: expect.objectContaining({ svc_id: feeOf(starting!, "subscription").svc_id }),
      }),
    ]);

    // a new subscription: its first invoice takes the credit
    await subscribe(as, "acme", "advance", "sub_2");
    const next = (await awaitInvoices(as, "acme", 3)).find((i) =>
      (i.billing_periods as Json[]).some((p) => p.external_subscription_id === "sub_2"),
    );
    expect(next).toMatchObject({
      fees_amount_cents: 3_750,
      taxes_amount_cents: 750,
      credit_notes_amount_cents: 4_285,
      total_amount_cents: 215,
    });
    expect((await ok(as("GET", `/credit_notes/${notes[0]!.svc_id}`))).credit_note).toMatchObject({
      balance_amount_cents: 0,
      credit_status: "consumed",
    });
  });

  // Lago's spec/scenarios/subscriptions/terminate_manually_spec.rb: 100.00 a month in advance, a
  // 20 % tax, 1.00 per item; subscribed Feb 8 2025 (21 of 28 days: 75.00 + 15.00), 50 items on
  // Feb 10, terminated Feb 21: 7 unused days, 25.00 + 5.00 = 30.00.
  async function terminatedOnThe21st(name: string, option: "credit" | "refund", paid = 0) {
    const as = await platform.story(name, "2025-02-08T00:00:00Z");
    await tax(as, "vat20", "20");
    await customer(as, "acme", { tax_codes: ["vat20"] });
    const items = await metric(as, "items", { aggregation_type: "sum_agg", field_name: "item_count" });
    await plan(as, "monthly", { amount_cents: 10_000, pay_in_advance: true, charges: [standard(items, "1")] });
    await subscribe(as, "acme", "monthly", "sub_1");
    const [starting] = await awaitInvoices(as, "acme", 1);
    expect(starting).toMatchObject({ fees_amount_cents: 7_500, taxes_amount_cents: 1_500, total_amount_cents: 9_000 });
    await advanceClock(as, "2025-02-10T12:00:00Z");
    await send(as, events(5, "sub_1", "items", "2025-02-10T12:00:00Z", { item_count: 10 }));
    if (paid)
      await ok(
        as("POST", "/payments", { payment: { invoice_id: starting!.svc_id, amount_cents: paid, reference: "wire" } }),
      );
    await advanceClock(as, "2025-02-21T00:00:00Z");
    await ok(as("DELETE", `/subscriptions/sub_1?on_termination_credit_note=${option}`));
    const billed = (await awaitInvoices(as, "acme", 2)).find((i) => i.svc_id !== starting!.svc_id)!;
    const [note] = (await ok(as("GET", "/credit_notes?external_customer_id=acme"))).credit_notes as Json[];
    return { as, billed, note: note! };
  }

  it("credits 30.00 that the termination invoice takes (Lago's default)", async () => {
    const { as, billed, note } = await terminatedOnThe21st("Terminate manually, credit", "credit");
    expect(note).toMatchObject({ total_amount_cents: 3_000, credit_amount_cents: 3_000, refund_amount_cents: 0 });
    expect(billed).toMatchObject({
      sub_total_excluding_taxes_amount_cents: 5_000,
      taxes_amount_cents: 1_000,
      credit_notes_amount_cents: 3_000,
      total_amount_cents: 3_000,
    });
    expect((await ok(as("GET", `/credit_notes/${note.svc_id}`))).credit_note).toMatchObject({
      balance_amount_cents: 0,
    });
  });

  it("refunds what was paid beyond the 60.00 used (75.00 paid: 15.00) and credits the rest", async () => {
    const { billed, note } = await terminatedOnThe21st("Terminate manually, refund", "refund", 7_500);
    expect(note).toMatchObject({
      total_amount_cents: 3_000,
      credit_amount_cents: 1_500,
      refund_amount_cents: 1_500,
      refund_status: "pending",
    });
    expect(billed).toMatchObject({
      sub_total_excluding_taxes_amount_cents: 5_000,
      taxes_amount_cents: 1_000,
      credit_notes_amount_cents: 1_500,
      total_amount_cents: 4_500,
    });
  });
});
