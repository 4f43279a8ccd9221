import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api";
import { allOf, inBatches, crashLoad, SETUP_CONCURRENCY } from "../support/crash";
import { ok, type Json } from "../support/scenario";
import { startE2E, type E2E } from "../support/platform";

/**
 * Prepaid credits while the wallet service dies: billing runs whose invoices take credits from
 * every customer's wallet while the wallet service is killed with SIGKILL and restarted. After
 * each run every invoice was credited exactly once: one `invoiced` transaction per wallet and
 * invoice, every wallet's balance equal to what its ledger moved.
 */
const CUSTOMERS = crashLoad("WALLET_CRASH_CUSTOMERS", 60, 300);
const FEE = 1_000;
const GRANTED = 1_500;

let e2e: E2E;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  // small billing passes: the run finalizes invoices in many steps, so the kills land between them
  e2e = await startE2E("wallet_crash", { BILLING_BATCH: "20" });
  call = api(e2e.platform.baseUrl, (await e2e.sandbox("Wallet crash", "2024-01-01T00:00:00Z")).api_key);
  await ok(
    call("POST", "/plans", {
      plan: {
        name: "Flat",
        code: "flat",
        interval: "monthly",
        amount_cents: FEE,
        amount_currency: "EUR",
        pay_in_advance: false,
      },
    }),
  );
  await inBatches(CUSTOMERS, SETUP_CONCURRENCY, async (i) => {
    await ok(
      call("POST", "/subscriptions", {
        subscription: {
          external_customer_id: `c${i}`,
          plan_code: "flat",
          external_id: `s${i}`,
          billing_time: "calendar",
        },
      }),
    );
    await ok(
      call("POST", "/wallets", {
        wallet: {
          external_customer_id: `c${i}`,
          currency: "EUR",
          rate_amount: "1",
          granted_credits: String(GRANTED / 100),
        },
      }),
    );
  });
}, 300_000);

afterAll(async () => {
  await e2e?.stop();
});

const all = (path: string, key: string) => allOf(call, path, key);

/** Advances the clock while killing the wallet service at `shares` of the month's invoices finalized (credits are taken then); how many were at each kill. */
async function billKillingWallets(to: string, before: number, shares: number[]): Promise<number[]> {
  await ok(call("POST", "/test_clock/advance", { test_clock: { frozen_time: to } }));
  const atKills: number[] = [];
  for (const share of shares) {
    for (;;) {
      const stored =
        ((await call("GET", "/invoices?status=finalized&per_page=1")).body.meta?.total_count ?? 0) - before;
      if (stored >= share * CUSTOMERS) {
        atKills.push(stored);
        break;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    await e2e.platform.kill("wallet", "SIGKILL");
    await e2e.platform.start("wallet");
  }
  const deadline = Date.now() + 240_000;
  while ((await call("GET", "/test_clock")).body.test_clock.status !== "ready") {
    if (Date.now() > deadline) throw new Error("the clock did not finish advancing");
    await new Promise((r) => setTimeout(r, 200));
  }
  return atKills;
}

/** Each wallet: one invoiced transaction per invoice of its customer, and a balance equal to what its ledger moved. */
async function expectCreditedOnce(invoices: Json[], expected: { balance: number; consumed: number[] }) {
  const byCustomer = new Map<string, Json[]>();
  for (const i of invoices)
    byCustomer.set(i.customer.external_id, [...(byCustomer.get(i.customer.external_id) ?? []), i]);
  const wallets = await all("/wallets", "wallets");
  expect(wallets).toHaveLength(CUSTOMERS);
  const wrong: unknown[] = [];
  for (const w of wallets) {
    const txs = await all(`/wallets/${w.svc_id}/wallet_transactions`, "wallet_transactions");
    const invoiced = txs.filter((t) => t.transaction_status === "invoiced");
    const ids = (byCustomer.get(w.external_customer_id) ?? []).map((i) => i.svc_id).sort();
    const amounts = invoiced.map((t) => Math.round(Number(t.amount) * 100)).sort((a, b) => a - b);
    if (
      w.balance_cents !== expected.balance ||
      JSON.stringify(invoiced.map((t) => t.svc_invoice_id).sort()) !== JSON.stringify(ids) ||
      JSON.stringify(amounts) !== JSON.stringify([...expected.consumed].sort((a, b) => a - b)) ||
      invoiced.some((t) => t.status !== "settled")
    ) {
      wrong.push({
        wallet: w.external_customer_id,
        balance: w.balance_cents,
        invoiced: invoiced.map((t) => [t.svc_invoice_id, t.amount, t.status]),
        invoices: ids,
      });
    }
  }
  expect(wrong).toEqual([]);
}

describe("prepaid credits survive kill -9 of the wallet service", () => {
  it("February: every invoice credited once, each wallet debited once", async () => {
    const atKills = await billKillingWallets("2024-02-01T00:00:00Z", 0, [0.2, 0.5, 0.8]);
    const invoices = await all("/invoices", "invoices");
    expect(invoices).toHaveLength(CUSTOMERS);
    const wrong = invoices.filter(
      (i) => i.status !== "finalized" || i.prepaid_credit_amount_cents !== FEE || i.total_amount_cents !== 0,
    );
    expect(
      wrong.map((i) => [i.customer.external_id, i.status, i.prepaid_credit_amount_cents, i.total_amount_cents]),
    ).toEqual([]);
    await expectCreditedOnce(invoices, { balance: GRANTED - FEE, consumed: [FEE] });
    console.log(
      `wallet crash test: ${CUSTOMERS} customers, February invoices finalized at each kill: ${atKills.join(", ")}`,
    );
  }, 420_000);

  it("March: the rest of each wallet, once", async () => {
    const atKills = await billKillingWallets("2024-03-01T00:00:00Z", CUSTOMERS, [0.3, 0.7]);
    const invoices = await all("/invoices", "invoices");
    expect(invoices).toHaveLength(2 * CUSTOMERS);
    const march = invoices.filter((i) => i.issuing_date === "2024-03-01");
    expect(march).toHaveLength(CUSTOMERS);
    const wrong = march.filter(
      (i) => i.prepaid_credit_amount_cents !== GRANTED - FEE || i.total_amount_cents !== FEE - (GRANTED - FEE),
    );
    expect(wrong.map((i) => [i.customer.external_id, i.prepaid_credit_amount_cents, i.total_amount_cents])).toEqual([]);
    await expectCreditedOnce(invoices, { balance: 0, consumed: [FEE, GRANTED - FEE] });
    console.log(`wallet crash test: March invoices finalized at each kill: ${atKills.join(", ")}`);
  }, 420_000);
});
