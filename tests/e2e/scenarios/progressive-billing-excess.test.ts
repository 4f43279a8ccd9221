import { describe, expect, it } from "vitest";
import { advanceClock, scenarioPlatform } from "../../support/sandbox";
import {
  customer,
  event,
  invoicesOf,
  metric,
  ok,
  plan,
  send,
  subscribe,
  tax,
  type Api,
  type Json,
} from "../../support/scenario";

// A progressive credit larger than the period invoice's charges (billing-rules §3.2): usage fell
// after it was billed progressively (a negative sum_agg event here). Lago's
// Credits::ProgressiveBillingService caps the credit at the charges and makes an automatic credit
// note on the progressive invoice for the excess (CreditNotes::CreateFromProgressiveBillingInvoice:
// reason other, credited), which the customer's next invoice consumes: the period's invoice itself,
// finalized after it. Plan of spec/scenarios/invoices/progressive_billing_spec.rb: a 31.00 base fee
// in arrears, 0.0002 per unit, a 2.00 threshold.
const platform = scenarioPlatform("scn_progressive_excess");

async function use(as: Api, day: string, units: number, subscriptions = ["sub_1"]): Promise<void> {
  await advanceClock(as, `${day}T00:00:00Z`);
  await send(
    as,
    subscriptions.map((s) => event(s, "compute", `${day}T00:00:00Z`, { total: units })),
  );
  await advanceClock(as, `${day}T12:00:00Z`);
}

async function progressivePlan(as: Api): Promise<void> {
  const total = await metric(as, "compute", { aggregation_type: "sum_agg", field_name: "total" });
  await plan(as, "progressive", {
    amount_cents: 3_100,
    charges: [{ billable_metric_id: total, charge_model: "standard", properties: { amount: "0.0002" } }],
    usage_thresholds: [{ amount_cents: 200 }],
  });
}

describe("progressive credit above the period's charges", () => {
  it("credits the excess on the progressive invoice with a credit note the period's invoice consumes", async () => {
    const as = await platform.story("Usage fell", "2024-01-01T00:00:00Z");
    await progressivePlan(as);
    await subscribe(as, "acme", "progressive", "sub_1");
    await use(as, "2024-01-06", 11_000); // 2.20 crosses 2.00: billed at once
    await use(as, "2024-01-20", -5_000); // the period's usage falls to 6 000 units: 1.20
    let progressive = (await invoicesOf(as, "acme")).filter((i) => i.invoice_type === "progressive_billing");
    expect(progressive.map((i) => i.fees_amount_cents)).toEqual([220]);

    await advanceClock(as, "2024-02-01T01:00:00Z");
    const invoices = await invoicesOf(as, "acme");
    progressive = invoices.filter((i) => i.invoice_type === "progressive_billing");
    const january = invoices.find((i) => i.invoice_type === "subscription")!;
    // 31.00 + 1.20 of charges; the 2.20 billed credits only the 1.20 of charges; the 1.00 left, credited by the note, comes off the total
    expect(january).toMatchObject({
      status: "finalized",
      fees_amount_cents: 3_220,
      progressive_billing_credit_amount_cents: 120,
      sub_total_excluding_taxes_amount_cents: 3_100,
      credit_notes_amount_cents: 100,
      total_amount_cents: 3_000,
    });
    const notes = (await ok(as("GET", "/credit_notes?per_page=100"))).credit_notes as Json[];
    expect(notes).toEqual([
      expect.objectContaining({
        svc_invoice_id: progressive[0]!.svc_id,
        reason: "other",
        credit_amount_cents: 100,
        refund_amount_cents: 0,
        total_amount_cents: 100,
        balance_amount_cents: 0,
        credit_status: "consumed",
      }),
    ]);
    const note = (await ok(as("GET", `/credit_notes/${notes[0]!.svc_id}`))).credit_note as Json;
    expect(note.items.map((i: Json) => [i.fee.svc_id, i.amount_cents])).toEqual([
      [progressive[0]!.fees[0].svc_id, 100],
    ]);
    expect(january.credits).toEqual([
      expect.objectContaining({ amount_cents: 100, item: expect.objectContaining({ type: "credit_note" }) }),
    ]);
  });

  it("credits each subscription of one invoice against its own charges: the one whose usage fell gets the note, with its taxes", async () => {
    // Two subscriptions of one customer on the same plan, billed on one invoice, each billed 2.20
    // progressively; then sub_1's usage falls to 1.20 and sub_2's grows to 6.20. Lago credits each
    // subscription's progressive invoice against that subscription's charges only
    // (Credits::ProgressiveBillingService): sub_1 takes 1.20 and its progressive invoice gets a
    // credit note for the 1.00 left (1.10 with its 10 % tax); sub_2 takes its 2.20. Crediting the
    // 4.40 against both subscriptions' charges together would leave no note and tax sub_2's 6.20
    // whole: 71.82 due instead of 71.50.
    const as = await platform.story("Two subscriptions, one fell", "2024-01-01T00:00:00Z");
    await tax(as, "vat10", "10");
    await customer(as, "acme", { tax_codes: ["vat10"] });
    await progressivePlan(as);
    await subscribe(as, "acme", "progressive", "sub_1");
    await subscribe(as, "acme", "progressive", "sub_2");
    await use(as, "2024-01-06", 11_000, ["sub_1", "sub_2"]); // 2.20 each: both cross 2.00
    await use(as, "2024-01-20", -5_000, ["sub_1"]); // sub_1: 1.20
    await use(as, "2024-01-21", 20_000, ["sub_2"]); // sub_2: 6.20 (no threshold left to cross)
    let progressive = (await invoicesOf(as, "acme")).filter((i) => i.invoice_type === "progressive_billing");
    expect(
      progressive.map((i) => [i.fees[0].external_subscription_id, i.fees_amount_cents, i.taxes_amount_cents]).sort(),
    ).toEqual([
      ["sub_1", 220, 22],
      ["sub_2", 220, 22],
    ]);

    await advanceClock(as, "2024-02-01T01:00:00Z");
    const invoices = await invoicesOf(as, "acme");
    progressive = invoices.filter((i) => i.invoice_type === "progressive_billing");
    const january = invoices.find((i) => i.invoice_type === "subscription")!;
    // 2 × 31.00 + 1.20 + 6.20 = 69.40; progressive credits 1.20 + 2.20; 10 % tax on 66.00; the 1.10 note off the total
    expect(january).toMatchObject({
      status: "finalized",
      fees_amount_cents: 6_940,
      progressive_billing_credit_amount_cents: 340,
      sub_total_excluding_taxes_amount_cents: 6_600,
      taxes_amount_cents: 660,
      credit_notes_amount_cents: 110,
      total_amount_cents: 7_150,
    });
    const sub1 = progressive.find((i) => i.fees[0].external_subscription_id === "sub_1")!;
    const notes = (await ok(as("GET", "/credit_notes?per_page=100"))).credit_notes as Json[];
    expect(notes).toEqual([
      expect.objectContaining({
        svc_invoice_id: sub1.svc_id,
        reason: "other",
        credit_amount_cents: 110,
        sub_total_excluding_taxes_amount_cents: 100,
        taxes_amount_cents: 10,
        total_amount_cents: 110,
        balance_amount_cents: 0,
        credit_status: "consumed",
      }),
    ]);
  });
});
