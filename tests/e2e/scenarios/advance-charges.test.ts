import { describe, expect, it } from "vitest";
import { advanceClock, scenarioPlatform } from "../../support/sandbox";
import {
  event,
  expectTotals,
  feesOf,
  invoicesOf,
  metric,
  ok,
  plan,
  reasons,
  send,
  span,
  standard,
  subscribe,
  tax,
  type Api,
  type Json,
} from "../../support/scenario";

// Paid pay-in-advance fees regrouped on an `advance_charges` invoice, and a recurring metric's
// carried-over units billed in advance at each period start, with Lago's numbers from
// spec/scenarios/invoices/advance_charges_spec.rb and spec/scenarios/fees/recurring_fees_spec.rb.
const platform = scenarioPlatform("scn_advance_charges");

/** The subscription's fees (GET /fees), oldest first (then dearest first); waits (bounded) until there are `count`. */
async function feesAwaited(
  as: Api,
  externalSubscriptionId: string,
  count: number,
  timeoutMs = 20_000,
): Promise<Json[]> {
  const deadline = Date.now() + timeoutMs;
  let fees: Json[] = [];
  for (;;) {
    fees = (
      await ok(as("GET", `/fees?external_subscription_id=${encodeURIComponent(externalSubscriptionId)}&per_page=100`))
    ).fees as Json[];
    if (fees.length >= count || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(fees, `${externalSubscriptionId}'s fees after ${timeoutMs} ms`).toHaveLength(count);
  // created together, the story's per-event fees come in card order: the later the card, the less it pays
  return [...fees].sort(
    (a, b) => String(a.created_at).localeCompare(String(b.created_at)) || b.amount_cents - a.amount_cents,
  );
}

const pay = async (as: Api, fee: Json) =>
  expect((await ok(as("PUT", `/fees/${fee.svc_id}`, { fee: { payment_status: "succeeded" } }))).fee).toMatchObject({
    payment_status: "succeeded",
  });

/** Lago's story: a 20 % tax, cards (unique_count, recurring) at 30.12 prorated, paid in advance, not invoiceable, paid fees regrouped. */
async function cardsStory(name: string, regroup: boolean): Promise<Api> {
  const as = await platform.story(name, "2024-06-05T10:00:00Z", { tax_codes: [] });
  await tax(as, "vat", "20");
  await ok(
    as("POST", "/customers", { customer: { external_id: "acme", name: "acme", currency: "EUR", tax_codes: ["vat"] } }),
  );
  const cards = await metric(as, "cards", {
    aggregation_type: "unique_count_agg",
    field_name: "item_id",
    recurring: true,
  });
  await plan(as, "cards_plan", {
    amount_cents: 49,
    pay_in_advance: true,
    charges: [
      standard(cards, "30.12", {
        pay_in_advance: true,
        invoiceable: false,
        prorated: true,
        ...(regroup ? { regroup_paid_fees: "invoice" } : {}),
      }),
    ],
  });
  await subscribe(as, "acme", "cards_plan", "sub_1");
  // card i on June 10 + i: 30.12 × (30 − 10 − (i − 1)) / 30
  await send(
    as,
    [1, 2, 3, 4, 5].map((i) => event("sub_1", "cards", `2024-06-${10 + i}T10:00:00Z`, { item_id: `card_${i}` })),
  );
  const fees = await feesAwaited(as, "sub_1", 5);
  expect(fees.map((f) => f.amount_cents)).toEqual([2_008, 1_908, 1_807, 1_707, 1_606]);
  return as;
}

describe("advance_charges invoices and recurring pay-in-advance fees", () => {
  it("regroups the paid fees on their own invoice at each billing run; the carried-over seats are billed for the new period, waiting for payment", async () => {
    const as = await cardsStory("Regrouped cards", true);
    const june = await feesAwaited(as, "sub_1", 5);
    // three fees paid on June 20
    await advanceClock(as, "2024-06-20T00:10:00Z");
    for (const fee of june.slice(0, 3)) await pay(as, fee);

    // July 1: the periodic invoice (base fee only: not-invoiceable fees never go on it) and the advance_charges invoice of the 3 paid fees
    await advanceClock(as, "2024-07-01T00:10:00Z");
    const afterJulyRun = await invoicesOf(as, "acme");
    expect(afterJulyRun).toHaveLength(3);
    const julyInvoice = afterJulyRun.find((i) => i.invoice_type === "subscription" && i.issuing_date === "2024-07-01");
    const firstAdvance = afterJulyRun.find((i) => i.invoice_type === "advance_charges");
    expectTotals(julyInvoice!, { fees: 49, taxes: 10 });
    expect(feesOf(julyInvoice!, "charge")).toEqual([]);
    expect(firstAdvance).toMatchObject({
      invoice_type: "advance_charges",
      status: "finalized",
      payment_status: "succeeded",
      issuing_date: "2024-07-01",
    });
    expect(reasons(firstAdvance!)).toEqual([["sub_1", "in_advance_charge_periodic"]]);
    // 20.08 + 19.08 + 18.07, each taxed when it was created: 4.02 + 3.82 + 3.61
    expectTotals(firstAdvance!, { fees: 2_008 + 1_908 + 1_807, taxes: 402 + 382 + 361 });
    expect(firstAdvance!.applied_taxes).toEqual([
      expect.objectContaining({ tax_code: "vat", amount_cents: 1_145, fees_amount_cents: 5_723 }),
    ]);
    expect(
      feesOf(firstAdvance!, "charge")
        .map((f) => f.svc_id)
        .sort(),
    ).toEqual(
      june
        .slice(0, 3)
        .map((f) => f.svc_id)
        .sort(),
    );
    const listed = await ok(as("GET", "/invoices?invoice_type=advance_charges"));
    expect((listed.invoices as Json[]).map((i) => i.svc_id)).toEqual([firstAdvance!.svc_id]);
    // recorded as paid, as Lago does: one manual payment of its total (the payment service records it from its finalization)
    const recorded = async () =>
      (await ok(as("GET", `/payments?invoice_id=${firstAdvance!.svc_id}`))).payments as Json[];
    for (let i = 0; i < 100 && (await recorded()).length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await recorded()).toEqual([
      expect.objectContaining({
        invoice_ids: [firstAdvance!.svc_id],
        amount_cents: 6_868,
        amount_currency: "EUR",
        payment_status: "succeeded",
        type: "manual",
        reference: "Charges paid in advance",
      }),
    ]);

    // the two unpaid June fees still wait; July's recurring fee: the 5 cards, the full 30.12 each, over July
    const afterJuly = await feesAwaited(as, "sub_1", 6);
    expect(
      afterJuly
        .filter((f) => f.svc_invoice_id === null)
        .map((f) => f.svc_id)
        .slice(0, 2)
        .sort(),
    ).toEqual(
      june
        .slice(3)
        .map((f) => f.svc_id)
        .sort(),
    );
    const julyRecurring = afterJuly.find((f) => !june.some((j) => j.svc_id === f.svc_id))!;
    expect(julyRecurring).toMatchObject({
      svc_invoice_id: null,
      units: "5.0",
      amount_cents: 15_060,
      taxes_amount_cents: 3_012,
      payment_status: "pending",
      pay_in_advance: true,
      invoiceable: false,
      event_transaction_id: null,
      item: { code: "cards", item_type: "BillableMetric" },
    });
    expect(span(julyRecurring.from_date, julyRecurring.to_date)).toEqual([
      "2024-07-01T00:00:00.000Z",
      "2024-07-31T23:59:59.999Z",
    ]);

    // July 10: everything still waiting is paid; August 1 regroups those three
    await advanceClock(as, "2024-07-10T10:00:00Z");
    for (const fee of afterJuly.filter((f) => f.svc_invoice_id === null)) await pay(as, fee);
    await advanceClock(as, "2024-08-01T00:10:00Z");
    const invoices = await invoicesOf(as, "acme");
    expect(invoices.map((i) => i.invoice_type).sort()).toEqual([
      "advance_charges",
      "advance_charges",
      "subscription",
      "subscription",
      "subscription",
    ]);
    const august = invoices.find((i) => i.invoice_type === "advance_charges" && i.issuing_date === "2024-08-01")!;
    expect(feesOf(august, "charge")).toHaveLength(3);
    // 150.60 + 17.07 + 16.06 = 183.73; taxes 30.12 + 3.41 + 3.21 = 36.74 (a tax on the total would give 36.75): 220.47
    expectTotals(august, { fees: 18_373, taxes: 3_674 });
    expect(august).toMatchObject({ total_amount_cents: 22_047, payment_status: "succeeded" });
    expect(august.number).not.toBe(firstAdvance!.number);
    // August's recurring fee waits, unpaid
    const afterAugust = await feesAwaited(as, "sub_1", 7);
    expect(afterAugust.filter((f) => f.svc_invoice_id === null)).toEqual([
      expect.objectContaining({ units: "5.0", amount_cents: 15_060, payment_status: "pending" }),
    ]);
    // the gathered fees follow their invoice
    expect((await ok(as("GET", `/fees/${julyRecurring.svc_id}`))).fee).toMatchObject({
      svc_invoice_id: august.svc_id,
      payment_status: "succeeded",
    });
  });

  it("never invoices a not-invoiceable charge that does not regroup, paid or not; its recurring fee still comes each period", async () => {
    const as = await cardsStory("Unregrouped cards", false);
    await advanceClock(as, "2024-06-20T00:10:00Z");
    const june = await feesAwaited(as, "sub_1", 5);
    for (const fee of june) await pay(as, fee);
    await advanceClock(as, "2024-07-01T00:10:00Z");
    const invoices = await invoicesOf(as, "acme");
    expect(invoices.map((i) => i.invoice_type)).toEqual(["subscription", "subscription"]);
    expect(feesOf(invoices[1]!, "charge")).toEqual([]);
    const fees = await feesAwaited(as, "sub_1", 6);
    expect(fees.every((f) => f.svc_invoice_id === null)).toBe(true);
    expect(fees.filter((f) => f.event_transaction_id === null)).toEqual([
      expect.objectContaining({ units: "5.0", amount_cents: 15_060 }),
    ]);
  });

  it("regroups the old plan's paid fees at an upgrade; the carried-over seats of both plans are billed for the next period", async () => {
    // Lago's "when subscription is upgraded": the upgrade plan at 2.59 with cards at 60.00
    const as = await platform.story("Upgraded cards", "2024-06-05T10:00:00Z", { tax_codes: [] });
    await tax(as, "vat", "20");
    await ok(
      as("POST", "/customers", {
        customer: { external_id: "acme", name: "acme", currency: "EUR", tax_codes: ["vat"] },
      }),
    );
    const cards = await metric(as, "cards", {
      aggregation_type: "unique_count_agg",
      field_name: "item_id",
      recurring: true,
    });
    const card = (amount: string) =>
      standard(cards, amount, {
        pay_in_advance: true,
        invoiceable: false,
        prorated: true,
        regroup_paid_fees: "invoice",
      });
    await plan(as, "cards_plan", { amount_cents: 49, pay_in_advance: true, charges: [card("30.12")] });
    await plan(as, "cards_upgrade", { amount_cents: 259, pay_in_advance: true, charges: [card("60")] });
    await subscribe(as, "acme", "cards_plan", "sub_1");
    await advanceClock(as, "2024-06-10T10:00:00Z");
    await send(
      as,
      [1, 2, 3].map((i) => event("sub_1", "cards", "2024-06-10T10:00:00Z", { item_id: `card_${i}` })),
    );
    const old = await feesAwaited(as, "sub_1", 3);
    for (const fee of old) await pay(as, fee);

    await advanceClock(as, "2024-06-15T10:00:00Z");
    await subscribe(as, "acme", "cards_upgrade", "sub_1");
    await advanceClock(as, "2024-06-15T10:01:00Z");
    const atUpgrade = await invoicesOf(as, "acme");
    expect(atUpgrade).toHaveLength(3);
    const regrouped = atUpgrade.find((i) => i.invoice_type === "advance_charges")!;
    expect(
      feesOf(regrouped, "charge")
        .map((f) => f.svc_id)
        .sort(),
    ).toEqual(old.map((f) => f.svc_id).sort());
    expect(regrouped).toMatchObject({
      payment_status: "succeeded",
      fees_amount_cents: old.reduce((n, f) => n + f.amount_cents, 0),
    });

    // card_4 on the new plan, paid; July 1 regroups it alone, and the 4 cards carry over for July at 60.00
    await advanceClock(as, "2024-06-20T10:00:00Z");
    await send(as, [event("sub_1", "cards", "2024-06-20T10:00:00Z", { item_id: "card_4" })]);
    const withFourth = await feesAwaited(as, "sub_1", 4);
    const fourth = withFourth.find((f) => !old.some((o) => o.svc_id === f.svc_id))!;
    await pay(as, fourth);
    await advanceClock(as, "2024-07-01T00:10:00Z");
    const invoices = await invoicesOf(as, "acme");
    expect(invoices).toHaveLength(5);
    const july = invoices
      .filter((i) => i.invoice_type === "advance_charges")
      .find((i) => i.svc_id !== regrouped.svc_id)!;
    expect(feesOf(july, "charge").map((f) => f.svc_id)).toEqual([fourth.svc_id]);
    const recurring = (await feesAwaited(as, "sub_1", 5)).filter((f) => f.svc_invoice_id === null);
    expect(recurring).toEqual([
      expect.objectContaining({ units: "4.0", amount_cents: 24_000, payment_status: "pending" }),
    ]);
  });

  it("regroups every paid fee at a termination, its period not over, and bills no recurring fee then", async () => {
    // Lago's TerminateService runs the advance_charges billing at the termination instant (no period bound)
    const as = await cardsStory("Terminated cards", true);
    await advanceClock(as, "2024-06-20T00:10:00Z");
    const june = await feesAwaited(as, "sub_1", 5);
    for (const fee of june.slice(0, 2)) await pay(as, fee);
    await advanceClock(as, "2024-06-25T10:00:00Z");
    await ok(as("DELETE", "/subscriptions/sub_1"));
    await advanceClock(as, "2024-06-25T10:01:00Z");
    const invoices = await invoicesOf(as, "acme");
    const regrouped = invoices.filter((i) => i.invoice_type === "advance_charges");
    expect(regrouped).toHaveLength(1);
    expect(
      feesOf(regrouped[0]!, "charge")
        .map((f) => f.svc_id)
        .sort(),
    ).toEqual(
      june
        .slice(0, 2)
        .map((f) => f.svc_id)
        .sort(),
    );
    expectTotals(regrouped[0]!, { fees: 2_008 + 1_908, taxes: 402 + 382 });
    // the three unpaid fees still wait; no recurring fee on a termination
    const fees = await feesAwaited(as, "sub_1", 5);
    expect(fees.filter((f) => f.svc_invoice_id === null).map((f) => f.amount_cents)).toEqual([1_807, 1_707, 1_606]);
  });

  it("bills an invoiceable recurring pay-in-advance charge's carried-over units on the periodic invoice, for the period that starts", async () => {
    // spec/scenarios/fees/recurring_fees_spec.rb's seats at 30 (prorated), here invoiceable: each event has its invoice;
    // at July 1 the 5 seats are billed whole for July on July's subscription invoice
    const as = await platform.story("Invoiceable seats", "2024-06-05T12:12:00Z");
    const seats = await metric(as, "seats", {
      aggregation_type: "unique_count_agg",
      field_name: "item_id",
      recurring: true,
    });
    await plan(as, "seats_plan", {
      amount_cents: 4_999,
      pay_in_advance: true,
      charges: [standard(seats, "30", { pay_in_advance: true, prorated: true })],
    });
    await subscribe(as, "acme", "seats_plan", "sub_1");
    await send(
      as,
      [1, 2, 3, 4, 5].map((i) => event("sub_1", "seats", `2024-06-${10 + i}T10:00:00Z`, { item_id: `user_${i}` })),
    );
    const fees = await feesAwaited(as, "sub_1", 5);
    // (21 − i) days of 30 at 30.00
    expect(fees.map((f) => f.amount_cents)).toEqual([2_000, 1_900, 1_800, 1_700, 1_600]);
    await advanceClock(as, "2024-07-01T00:10:00Z");
    const invoices = await invoicesOf(as, "acme");
    const july = invoices.find(
      (i) =>
        i.issuing_date === "2024-07-01" && i.invoice_type === "subscription" && feesOf(i, "subscription").length === 1,
    )!;
    const recurring = feesOf(july, "charge");
    expect(recurring).toEqual([
      expect.objectContaining({ units: "5.0", amount_cents: 15_000, pay_in_advance: true, invoiceable: true }),
    ]);
    expect(span(recurring[0]!.from_date, recurring[0]!.to_date)).toEqual([
      "2024-07-01T00:00:00.000Z",
      "2024-07-31T23:59:59.999Z",
    ]);
    expectTotals(july, { fees: 4_999 + 15_000 });
  });
});
