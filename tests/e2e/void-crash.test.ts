import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@billing/testkit";
import { api } from "../support/api";
import { allOf, inBatches, crashLoad, SETUP_CONCURRENCY } from "../support/crash";
import { startE2E, type E2E } from "../support/platform";
import { ok, type Api, type Json } from "../support/scenario";

/**
 * Voids while invoicing dies: every customer's February invoice took a 3.00 coupon and 7.00 of
 * prepaid credits; all are voided (no credit note) while the invoicing service is killed with
 * SIGKILL twice and restarted. A void gives back what its invoice used, each once (in the void,
 * and again, if the void was cut short, by the consumer of invoicing's own invoice.voided event).
 * Afterwards every coupon is active again with its 3.00, every wallet holds its 15.00 again
 * through exactly one give-back transaction, and no invoice is left half voided.
 */
const CUSTOMERS = crashLoad("VOID_CRASH_CUSTOMERS", 30, 120);
const FEE = 1_000;
const COUPON = 300;
const GRANTED = 1_500;
const TAKEN = FEE - COUPON;

let e2e: E2E;
let call: Api;
const all = (path: string, key: string) => allOf(call, path, key);

beforeAll(async () => {
  e2e = await startE2E("void_crash");
  call = api(e2e.platform.baseUrl, (await e2e.sandbox("Void crash", "2024-01-01T00:00:00Z")).api_key);
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
  await ok(
    call("POST", "/coupons", {
      coupon: {
        name: "three",
        code: "three",
        coupon_type: "fixed_amount",
        amount_cents: COUPON,
        amount_currency: "EUR",
        frequency: "once",
        expiration: "no_expiration",
        reusable: true,
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
      call("POST", "/applied_coupons", { applied_coupon: { external_customer_id: `c${i}`, coupon_code: "three" } }),
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
  await ok(call("POST", "/test_clock/advance", { test_clock: { frozen_time: "2024-02-01T00:30:00Z" } }));
  await waitFor(async () => (await call("GET", "/test_clock")).body.test_clock.status === "ready", {
    what: "February billed",
    timeoutMs: 240_000,
    intervalMs: 250,
  });
}, 420_000);

afterAll(async () => {
  await e2e?.stop();
});

describe("voids survive kill -9 of invoicing", () => {
  it(`gives back each coupon and each wallet's credits once, however the voids were cut short`, async () => {
    const invoices = await all("/invoices?issuing_date_from=2024-02-01", "invoices");
    expect(invoices).toHaveLength(CUSTOMERS);
    expect(
      invoices.filter(
        (i) =>
          i.coupons_amount_cents !== COUPON || i.prepaid_credit_amount_cents !== TAKEN || i.total_amount_cents !== 0,
      ),
    ).toEqual([]);

    // every invoice voided, 10 requests at a time, invoicing killed after a third and two thirds of them;
    // a request the kill cut short is sent again (a voided invoice answers 405: it is done)
    let sent = 0;
    let cutShort = 0;
    const kills: number[] = [];
    const voidOne = async (invoice: Json) => {
      for (let attempt = 0; ; attempt++) {
        const r = await call("POST", `/invoices/${invoice.svc_id}/void`, {}).catch((err: Error) => ({
          status: 0,
          body: { error: err.message } as Json,
        }));
        if (r.status === 200 || (r.status === 405 && attempt > 0)) return;
        if (attempt === 0) cutShort++;
        if (attempt >= 60) throw new Error(`void of ${invoice.svc_id}: ${r.status} ${JSON.stringify(r.body)}`);
        await new Promise((res) => setTimeout(res, 500));
      }
    };
    const voiding = inBatches(CUSTOMERS, 10, async (i) => {
      await voidOne(invoices[i]!);
      sent++;
    });
    for (const share of [1 / 3, 2 / 3]) {
      await waitFor(() => sent >= share * CUSTOMERS, { what: `${share} of the voids`, timeoutMs: 120_000 });
      kills.push(sent);
      await e2e.platform.kill("invoicing", "SIGKILL");
      await e2e.platform.start("invoicing");
    }
    await voiding;

    const voided = await all("/invoices?issuing_date_from=2024-02-01", "invoices");
    expect(voided.filter((i) => i.status !== "voided").map((i) => [i.svc_id, i.status])).toEqual([]);

    // each coupon active again with its 3.00, each wallet back at 15.00 through one give-back per invoice
    const coupons = await waitFor(
      async () => {
        const list = await all("/applied_coupons", "applied_coupons");
        return list.every((c) => c.status === "active" && c.amount_cents_remaining === COUPON) ? list : undefined;
      },
      { what: "every coupon given back", timeoutMs: 120_000, intervalMs: 250 },
    );
    expect(coupons).toHaveLength(CUSTOMERS);
    const wallets = await waitFor(
      async () => {
        const list = await all("/wallets", "wallets");
        return list.every((w) => w.balance_cents === GRANTED) ? list : undefined;
      },
      { what: "every wallet given back its credits", timeoutMs: 120_000, intervalMs: 250 },
    );
    expect(wallets).toHaveLength(CUSTOMERS);
    // a moment more: nothing given back twice
    await new Promise((r) => setTimeout(r, 2_000));
    const wrong: unknown[] = [];
    for (const w of await all("/wallets", "wallets")) {
      const txs = await all(`/wallets/${w.svc_id}/wallet_transactions`, "wallet_transactions");
      const given = txs.filter((t) => t.svc_voided_invoice_id);
      const [once] = given;
      const right =
        given.length === 1 &&
        once?.transaction_status === "granted" &&
        once.status === "settled" &&
        Math.round(Number(once.amount) * 100) === TAKEN;
      if (w.balance_cents !== GRANTED || !right)
        wrong.push({
          wallet: w.external_customer_id,
          balance: w.balance_cents,
          given: given.map((t) => [t.amount, t.status]),
        });
    }
    expect(wrong).toEqual([]);
    expect(
      (await all("/applied_coupons", "applied_coupons")).filter((c) => c.amount_cents_remaining !== COUPON),
    ).toEqual([]);
    console.log(
      `void crash test: ${CUSTOMERS} invoices voided, invoicing killed after ${kills.join(" and ")} voids, ${cutShort} requests cut short and sent again`,
    );
  }, 420_000);
});
