import { describe, expect, it } from "vitest";
import { advanceClock, scenarioPlatform } from "../../support/sandbox";
import {
  events,
  feeOf,
  invoicesOf,
  metric,
  ok,
  plan,
  send,
  standard,
  subscribe,
  type Api,
  type Json,
} from "../../support/scenario";

// Prepaid credits on sandbox organizations (billing-rules §6): wallets consumed by the invoices
// they pay, by priority and applies_to, once per invoice and wallet. Frozen on Jan 1 2024;
// customer acme (EUR); amounts in cents.
const platform = scenarioPlatform("scn_wallets");

async function wallet(as: Api, fields: Json): Promise<Json> {
  return (
    await ok(
      as("POST", "/wallets", {
        wallet: { external_customer_id: "acme", currency: "EUR", rate_amount: "1", ...fields },
      }),
    )
  ).wallet as Json;
}

async function walletOf(as: Api, id: string): Promise<Json> {
  return (await ok(as("GET", `/wallets/${id}`))).wallet as Json;
}

async function consumptionsOf(as: Api, id: string): Promise<Json[]> {
  return (await ok(as("GET", `/wallets/${id}/wallet_transactions?transaction_status=invoiced`)))
    .wallet_transactions as Json[];
}

describe("prepaid credits on invoices", () => {
  it("takes credits by priority and applies_to, month after month, once per invoice and wallet", async () => {
    // Basic: 10.00 a month in arrears, calls at 1.00. A charges-only wallet (priority 1, 4 credits)
    // and an unrestricted one (priority 2, 15 credits), both granted at 1 € a credit.
    const as = await platform.story("Two wallets", "2024-01-01T00:00:00Z");
    const calls = await metric(as, "calls");
    await plan(as, "basic", { amount_cents: 1_000, charges: [standard(calls, "1")] });
    await subscribe(as, "acme", "basic", "sub_1");
    const charges = await wallet(as, {
      name: "Charges",
      priority: 1,
      granted_credits: "4",
      applies_to: { fee_types: ["charge"] },
    });
    const general = await wallet(as, { name: "General", priority: 2, granted_credits: "15" });
    await send(as, events(3, "sub_1", "calls", "2024-01-10T00:00:00Z"));

    // February 1: 1,000 base + 300 calls. Charges wallet: the 300 of calls; general: the 1,000 base. Nothing left to pay.
    await advanceClock(as, "2024-02-01T00:30:00Z");
    const [february] = await invoicesOf(as, "acme");
    expect(feeOf(february!, "charge", "calls").amount_cents).toBe(300);
    expect(february).toMatchObject({
      fees_amount_cents: 1_300,
      prepaid_credit_amount_cents: 1_300,
      total_amount_cents: 0,
      payment_status: "succeeded",
    });
    expect(await walletOf(as, charges.svc_id)).toMatchObject({
      balance_cents: 100,
      credits_balance: "1.0",
      consumed_credits: "3.0",
    });
    expect(await walletOf(as, general.svc_id)).toMatchObject({ balance_cents: 500, consumed_credits: "10.0" });

    // March 1: 1,000 base, no calls. The charges wallet has nothing to pay; the general one gives its last 500.
    await advanceClock(as, "2024-03-01T00:30:00Z");
    const [, march] = await invoicesOf(as, "acme");
    expect(march).toMatchObject({
      fees_amount_cents: 1_000,
      prepaid_credit_amount_cents: 500,
      total_amount_cents: 500,
      payment_status: "pending",
    });
    expect(await walletOf(as, general.svc_id)).toMatchObject({
      balance_cents: 0,
      credits_balance: "0.0",
      consumed_credits: "15.0",
    });
    expect(await walletOf(as, charges.svc_id)).toMatchObject({ balance_cents: 100 });

    // one outbound `invoiced` transaction per wallet per invoice, naming it
    const general_ = await consumptionsOf(as, general.svc_id);
    expect(general_.map((t) => [t.svc_invoice_id, t.amount, t.transaction_type, t.status]).sort()).toEqual(
      [
        [february!.svc_id, "10.00", "outbound", "settled"],
        [march!.svc_id, "5.00", "outbound", "settled"],
      ].sort(),
    );
    expect((await consumptionsOf(as, charges.svc_id)).map((t) => [t.svc_invoice_id, t.amount])).toEqual([
      [february!.svc_id, "3.00"],
    ]);
  });

  it("leaves a terminated wallet out of the invoice", async () => {
    const as = await platform.story("Terminated wallet", "2024-01-01T00:00:00Z");
    await plan(as, "basic", { amount_cents: 1_000 });
    await subscribe(as, "acme", "basic", "sub_1");
    const ended = await wallet(as, { granted_credits: "50" });
    expect((await ok(as("DELETE", `/wallets/${ended.svc_id}`))).wallet).toMatchObject({
      status: "terminated",
      balance_cents: 0,
    });
    await advanceClock(as, "2024-02-01T00:30:00Z");
    const [february] = await invoicesOf(as, "acme");
    expect(february).toMatchObject({ prepaid_credit_amount_cents: 0, total_amount_cents: 1_000 });
    expect(await consumptionsOf(as, ended.svc_id)).toEqual([]);
  });

  it("ends a wallet at its expiration as the test clock passes it, voiding what is left, before the next invoice", async () => {
    // 15 credits expiring Feb 15; 10.00 a month. February's invoice takes 10.00; on Feb 15 the last 5.00 are voided; March pays in full.
    const as = await platform.story("Expiring wallet", "2024-01-01T00:00:00Z");
    await plan(as, "basic", { amount_cents: 1_000 });
    await subscribe(as, "acme", "basic", "sub_1");
    const expiring = await wallet(as, { granted_credits: "15", expiration_at: "2024-02-15T00:00:00Z" });
    await advanceClock(as, "2024-02-01T00:30:00Z");
    expect(await walletOf(as, expiring.svc_id)).toMatchObject({ status: "active", balance_cents: 500 });
    await advanceClock(as, "2024-03-01T00:30:00Z");
    expect(await walletOf(as, expiring.svc_id)).toMatchObject({
      status: "terminated",
      balance_cents: 0,
      terminated_at: "2024-02-15T00:00:00.000Z",
    });
    const voided = (await ok(as("GET", `/wallets/${expiring.svc_id}/wallet_transactions?transaction_status=voided`)))
      .wallet_transactions as Json[];
    expect(voided.map((t) => [t.amount, t.settled_at])).toEqual([["5.00", "2024-02-15T00:00:00.000Z"]]);
    const [february, march] = await invoicesOf(as, "acme");
    expect([
      february!.prepaid_credit_amount_cents,
      march!.prepaid_credit_amount_cents,
      march!.total_amount_cents,
    ]).toEqual([1_000, 0, 1_000]);
  });

  it("invoices paid credits at once, and credits them when that invoice is paid; a failed payment credits nothing", async () => {
    // 20 credits bought at 1.50 €: a credit invoice of 30.00, untaxed, numbered; the wallet moves only once it is paid.
    const as = await platform.story("Paid credits", "2024-01-01T00:00:00Z");
    const w = await wallet(as, { rate_amount: "1.5", paid_credits: "20" });
    expect(w).toMatchObject({ balance_cents: 0 });
    const [purchase] = (await ok(as("GET", `/wallets/${w.svc_id}/wallet_transactions`))).wallet_transactions as Json[];
    expect(purchase).toMatchObject({
      transaction_status: "purchased",
      status: "pending",
      amount: "30.00",
      credit_amount: "20.0",
    });
    const [credit] = await invoicesOf(as, "acme");
    expect(credit).toMatchObject({
      svc_id: purchase!.svc_invoice_id,
      invoice_type: "credit",
      status: "finalized",
      payment_status: "pending",
      issuing_date: "2024-01-01",
      fees_amount_cents: 3_000,
      taxes_amount_cents: 0,
      coupons_amount_cents: 0,
      prepaid_credit_amount_cents: 0,
      total_amount_cents: 3_000,
    });
    expect(credit!.fees).toHaveLength(1);
    expect(credit!.fees[0]).toMatchObject({
      amount_cents: 3_000,
      units: "20.0",
      item: { type: "credit", item_type: "WalletTransaction", svc_item_id: purchase!.svc_id },
    });

    await ok(as("PUT", `/invoices/${credit!.svc_id}`, { invoice: { payment_status: "succeeded" } }));
    const deadline = Date.now() + 10_000;
    let paid = await walletOf(as, w.svc_id);
    while (paid.balance_cents === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      paid = await walletOf(as, w.svc_id);
    }
    expect(paid).toMatchObject({ balance_cents: 3_000, credits_balance: "20.0" });
    expect((await ok(as("GET", `/wallet_transactions/${purchase!.svc_id}`))).wallet_transaction).toMatchObject({
      status: "settled",
      settled_at: "2024-01-01T00:00:00.000Z",
    });
    // paying it again moves nothing more
    await ok(as("PUT", `/invoices/${credit!.svc_id}`, { invoice: { payment_status: "succeeded" } }));

    // a second purchase whose payment fails
    const [second] = (
      await ok(as("POST", "/wallet_transactions", { wallet_transaction: { wallet_id: w.svc_id, paid_credits: "2" } }))
    ).wallet_transactions as Json[];
    await ok(as("PUT", `/invoices/${second!.svc_invoice_id}`, { invoice: { payment_status: "failed" } }));
    let failed = second!;
    while (failed.status === "pending" && Date.now() < deadline + 10_000) {
      await new Promise((r) => setTimeout(r, 100));
      failed = (await ok(as("GET", `/wallet_transactions/${second!.svc_id}`))).wallet_transaction as Json;
    }
    expect(failed).toMatchObject({ status: "failed", failed_at: "2024-01-01T00:00:00.000Z" });
    expect(await walletOf(as, w.svc_id)).toMatchObject({ balance_cents: 3_000 });
  });

  // issue 29, story 2: a paid purchase is credited exactly once whatever order its payment statuses come in
  it("credits a purchase paid after a failed payment, once, and a late failure takes nothing back", async () => {
    const as = await platform.story("Paid after failing", "2024-01-01T00:00:00Z");
    const w = await wallet(as, { rate_amount: "1" });
    const [purchase] = (
      await ok(as("POST", "/wallet_transactions", { wallet_transaction: { wallet_id: w.svc_id, paid_credits: "10" } }))
    ).wallet_transactions as Json[];
    const transaction = async () =>
      (await ok(as("GET", `/wallet_transactions/${purchase!.svc_id}`))).wallet_transaction as Json;
    const until = async (status: string) => {
      const deadline = Date.now() + 15_000;
      let tx = await transaction();
      while (tx.status !== status && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        tx = await transaction();
      }
      return tx;
    };
    await ok(as("PUT", `/invoices/${purchase!.svc_invoice_id}`, { invoice: { payment_status: "failed" } }));
    expect(await until("failed")).toMatchObject({ status: "failed" });
    expect(await walletOf(as, w.svc_id)).toMatchObject({ balance_cents: 0 });

    // paid after all (a retry, a manual payment): the purchase settles, once
    await ok(as("PUT", `/invoices/${purchase!.svc_invoice_id}`, { invoice: { payment_status: "succeeded" } }));
    expect(await until("settled")).toMatchObject({ status: "settled", amount: "10.00" });
    expect(await walletOf(as, w.svc_id)).toMatchObject({ balance_cents: 1_000, credits_balance: "10.0" });
    // succeeded again, then a late failure: nothing moves
    await ok(as("PUT", `/invoices/${purchase!.svc_invoice_id}`, { invoice: { payment_status: "succeeded" } }));
    await ok(as("PUT", `/invoices/${purchase!.svc_invoice_id}`, { invoice: { payment_status: "failed" } }));
    await ok(as("PUT", `/invoices/${purchase!.svc_invoice_id}`, { invoice: { payment_status: "succeeded" } }));
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await transaction()).toMatchObject({ status: "settled" });
    expect(await walletOf(as, w.svc_id)).toMatchObject({ balance_cents: 1_000, credits_balance: "10.0" });
    const inbound = (await ok(as("GET", `/wallets/${w.svc_id}/wallet_transactions`))).wallet_transactions as Json[];
    expect(inbound.filter((t) => t.status === "settled").map((t) => t.amount)).toEqual(["10.00"]);
  });

  it("tops wallets up on their intervals as the test clock passes them, once per due time", async () => {
    // Jan 1: a wallet granted 10 a month (first on Feb 1), and one topped up to 25 credits (granted) on the 15th of each month.
    const as = await platform.story("Interval rules", "2024-01-01T00:00:00Z");
    const monthly = await wallet(as, {
      granted_credits: "10",
      recurring_transaction_rules: [{ trigger: "interval", interval: "monthly", granted_credits: "10" }],
    });
    const target = await wallet(as, {
      code: "target",
      granted_credits: "5",
      recurring_transaction_rules: [
        {
          trigger: "interval",
          interval: "monthly",
          method: "target",
          target_ongoing_balance: "25",
          grants_target_top_up: true,
          started_at: "2024-01-15T00:00:00Z",
        },
      ],
    });
    expect(monthly.recurring_transaction_rules[0]).toMatchObject({ interval: "monthly", status: "active" });
    // one jump across three anniversaries: Feb 1, Mar 1, Apr 1 (the monthly rule); Jan 15, Feb 15, Mar 15 (the target rule)
    await advanceClock(as, "2024-04-01T00:30:00Z");
    expect(await walletOf(as, monthly.svc_id)).toMatchObject({ balance_cents: 4_000 });
    const grants = (
      await ok(as("GET", `/wallets/${monthly.svc_id}/wallet_transactions?transaction_status=granted&per_page=10`))
    ).wallet_transactions as Json[];
    expect(grants.map((t) => [t.source, t.amount, t.created_at]).sort()).toEqual([
      ["interval", "10.00", "2024-02-01T00:00:00.000Z"],
      ["interval", "10.00", "2024-03-01T00:00:00.000Z"],
      ["interval", "10.00", "2024-04-01T00:00:00.000Z"],
      ["manual", "10.00", "2024-01-01T00:00:00.000Z"],
    ]);
    // the target rule granted 20 credits on Jan 15 (5 → 25), then nothing while the balance stood at its target
    const targetGrants = (
      await ok(as("GET", `/wallets/${target.svc_id}/wallet_transactions?transaction_status=granted`))
    ).wallet_transactions as Json[];
    expect(targetGrants.map((t) => [t.source, t.amount, t.created_at]).sort()).toEqual([
      ["interval", "20.00", "2024-01-15T00:00:00.000Z"],
      ["manual", "5.00", "2024-01-01T00:00:00.000Z"],
    ]);
    expect(await walletOf(as, target.svc_id)).toMatchObject({ balance_cents: 2_500 });
  });

  it("follows usage as it arrives: the ongoing balance is the balance less the current period's usage", async () => {
    // 10 credits at 1 €; calls at 1.00 each. 3 calls → 3.00 of ongoing usage; 7 more → the wallet's ongoing balance reaches 0.
    const as = await platform.story("Ongoing balance", "2024-01-01T00:00:00Z");
    const calls = await metric(as, "calls");
    await plan(as, "usage", { amount_cents: 0, charges: [standard(calls, "1")] });
    await subscribe(as, "acme", "usage", "sub_1");
    const w = await wallet(as, { granted_credits: "10" });
    const ongoing = async (usage: number) => {
      const deadline = Date.now() + 15_000;
      let now = await walletOf(as, w.svc_id);
      while (now.ongoing_usage_balance_cents !== usage && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        now = await walletOf(as, w.svc_id);
      }
      return now;
    };
    await send(as, events(3, "sub_1", "calls", "2024-01-01T00:00:00Z"));
    expect(await ongoing(300)).toMatchObject({
      balance_cents: 1_000,
      ongoing_usage_balance_cents: 300,
      ongoing_balance_cents: 700,
      credits_ongoing_balance: "7.0",
      credits_ongoing_usage_balance: "3.0",
    });
    await send(as, events(7, "sub_1", "calls", "2024-01-01T00:00:00Z"));
    expect(await ongoing(1_000)).toMatchObject({
      balance_cents: 1_000,
      ongoing_balance_cents: 0,
      credits_ongoing_balance: "0.0",
    });
  });

  it("tops a wallet up when usage takes its ongoing balance to the threshold, once per fall", async () => {
    // 10 credits, a threshold rule at 5 granting 10; calls at 1.00. 6 calls: ongoing 4 ≤ 5 → +10 granted (20 − 6 = 14 ongoing); 2 more: 12, no top-up.
    const as = await platform.story("Threshold rule", "2024-01-01T00:00:00Z");
    const calls = await metric(as, "calls");
    await plan(as, "usage", { amount_cents: 0, charges: [standard(calls, "1")] });
    await subscribe(as, "acme", "usage", "sub_1");
    const w = await wallet(as, {
      granted_credits: "10",
      recurring_transaction_rules: [{ trigger: "threshold", threshold_credits: "5", granted_credits: "10" }],
    });
    const settle = async (usage: number, balance: number) => {
      const deadline = Date.now() + 15_000;
      let now = await walletOf(as, w.svc_id);
      while ((now.ongoing_usage_balance_cents !== usage || now.balance_cents !== balance) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        now = await walletOf(as, w.svc_id);
      }
      return now;
    };
    await send(as, events(6, "sub_1", "calls", "2024-01-01T00:00:00Z"));
    expect(await settle(600, 2_000)).toMatchObject({
      balance_cents: 2_000,
      ongoing_usage_balance_cents: 600,
      ongoing_balance_cents: 1_400,
    });
    await send(as, events(2, "sub_1", "calls", "2024-01-01T00:00:00Z"));
    expect(await settle(800, 2_000)).toMatchObject({ balance_cents: 2_000, ongoing_balance_cents: 1_200 });
    const topUps = (await ok(as("GET", `/wallets/${w.svc_id}/wallet_transactions?transaction_status=granted`)))
      .wallet_transactions as Json[];
    expect(topUps.map((t) => [t.source, t.amount]).sort()).toEqual([
      ["manual", "10.00"],
      ["threshold", "10.00"],
    ]);
  });
});
