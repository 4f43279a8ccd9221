import { describe, expect, it } from "vitest";
import { advanceClock, scenarioPlatform } from "../../support/sandbox";
import { event, invoicesOf, metric, ok, plan, send, subscribe, type Api, type Json } from "../../support/scenario";

// A progressive credit larger than the period invoice's charges (billing-rules §3.2): usage fell
// after it was billed progressively (a negative sum_agg event here). Lago's
// Credits::ProgressiveBillingService caps the credit at the charges and makes an automatic credit
// note on the progressive invoice for the excess (CreditNotes::CreateFromProgressiveBillingInvoice:
// reason other, credited), which the customer's next invoice consumes: the period's invoice itself,
// finalized after it. Plan of spec/scenarios/invoices/progressive_billing_spec.rb: a 31.00 base fee
// in arrears, 0.0002 per unit, a 2.00 threshold.
const platform = scenarioPlatform("scn_progressive_excess");

async function use(as: Api, day: string, units: number): Promise<void> {
  await advanceClock(as, `${day}T00:00:00Z`);
  await send(as, [event("sub_1", "compute", `${day}T00:00:00Z`, { total: units })]);
  await advanceClock(as, `${day}T12:00:00Z`);
}

describe("progressive credit above the period's charges", () => {
  it("credits the excess on the progressive invoice with a credit note the period's invoice consumes", async () => {
    const as = await platform.story("Usage fell", "2024-01-01T00:00:00Z");
    const total = await metric(as, "compute", { aggregation_type: "sum_agg", field_name: "total" });
    await plan(as, "progressive", {
      amount_cents: 3_100, charges: [{ billable_metric_id: total, charge_model: "standard", properties: { amount: "0.0002" } }],
      usage_thresholds: [{ amount_cents: 200 }],
    });
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
      status: "finalized", fees_amount_cents: 3_220, progressive_billing_credit_amount_cents: 120, sub_total_excluding_taxes_amount_cents: 3_100,
      credit_notes_amount_cents: 100, total_amount_cents: 3_000,
    });
    const notes = (await ok(as("GET", "/credit_notes?per_page=100"))).credit_notes as Json[];
    expect(notes).toEqual([expect.objectContaining({
      svc_invoice_id: progressive[0]!.svc_id, reason: "other", credit_amount_cents: 100, refund_amount_cents: 0, total_amount_cents: 100,
      balance_amount_cents: 0, credit_status: "consumed",
    })]);
    const note = (await ok(as("GET", `/credit_notes/${notes[0]!.svc_id}`))).credit_note as Json;
    expect(note.items.map((i: Json) => [i.fee.svc_id, i.amount_cents])).toEqual([[progressive[0]!.fees[0].svc_id, 100]]);
    expect(january.credits).toEqual([expect.objectContaining({ amount_cents: 100, item: expect.objectContaining({ type: "credit_note" }) })]);
  });
});
