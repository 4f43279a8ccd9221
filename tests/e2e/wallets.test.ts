import { connect, type NatsConnection } from "nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectEvents, waitFor } from "@billing/testkit";
import { api } from "../support/api";
import { openapiErrors } from "../support/openapi";
import { checkedLagoClient, lagoFailure } from "../support/lago-client";
import { startE2E, type E2E } from "../support/platform";

/**
 * Wallets of prepaid credits through HTTP: the official Lago client for the conformance checks
 * (every answer it gets is checked against Lago's OpenAPI document), and plain calls for the
 * error bodies, the ledger's arithmetic and the isolation of organizations.
 */
let e2e: E2E;
let lago: ReturnType<typeof checkedLagoClient>;
let asA: ReturnType<typeof api>;
let asB: ReturnType<typeof api>;
let nc: NatsConnection;
// the wallet service's events, of a wallet or of one of its transactions
type WalletEvent = {
  id: string;
  type: string;
  organization_id: string;
  data: { wallet?: { svc_id: string }; wallet_transaction?: { svc_wallet_id: string; status: string } };
};
let walletEvents: ReturnType<typeof collectEvents<WalletEvent>>;

beforeAll(async () => {
  e2e = await startE2E("wallets");
  const a = await e2e.organization("Wallet Co");
  nc = await connect({ servers: e2e.natsUrl });
  walletEvents = collectEvents(nc, "billing.wallet.>", a.organization_id);
  lago = checkedLagoClient(e2e.platform.baseUrl, a.api_key);
  asA = api(e2e.platform.baseUrl, a.api_key);
  asB = api(e2e.platform.baseUrl, (await e2e.organization("Other Co")).api_key);
  for (const [external_id, currency] of [
    ["cust_w", "EUR"],
    ["cust_usd", "USD"],
    ["cust_none", undefined],
  ] as const) {
    expect(
      (
        await asA("POST", "/customers", {
          customer: { external_id, name: external_id, ...(currency ? { currency } : {}) },
        })
      ).status,
    ).toBe(200);
  }
});

afterAll(async () => {
  walletEvents?.stop();
  await nc?.close();
  await e2e?.stop();
});

const failure = lagoFailure;
/** An id as we answer it (`svc_*`), which the client's types call `lago_*` and so do not know. */
const svcOf = (o: object, key: `svc_${string}` = "svc_id") => (o as Record<string, string>)[key]!;
const unprocessable = (error_details: Record<string, string[]>) => ({
  status: 422,
  body: { status: 422, error: "Unprocessable Entity", code: "validation_errors", error_details },
});
const notFound = (code: string) => ({ status: 404, body: { status: 404, error: "Not Found", code } });

describe("wallets through the Lago client", () => {
  let walletId: string;

  it("creates a wallet with granted credits settled at once and paid credits pending", async () => {
    const created = (
      await lago.wallets.createWallet({
        wallet: {
          external_customer_id: "cust_w",
          name: "Prepaid",
          code: "prepaid",
          rate_amount: "1.5",
          currency: "EUR",
          granted_credits: "10",
          paid_credits: "20",
        },
      })
    ).data.wallet;
    walletId = svcOf(created);
    // 10 granted credits at 1.50 € each: 15.00 €; the 20 paid credits wait for their payment
    expect(created).toMatchObject({
      external_customer_id: "cust_w",
      status: "active",
      currency: "EUR",
      rate_amount: "1.5",
      name: "Prepaid",
      code: "prepaid",
      priority: 50,
      balance_cents: 1500,
      credits_balance: "10.0",
      consumed_credits: "0.0",
      ongoing_balance_cents: 1500,
      credits_ongoing_balance: "10.0",
    });
    const txs = (await asA("GET", `/wallets/${walletId}/wallet_transactions`)).body;
    expect(openapiErrors("WalletTransactionsPaginated", txs)).toEqual([]);
    expect(
      txs.wallet_transactions
        .map((t: { transaction_status: string; status: string; amount: string; credit_amount: string }) => [
          t.transaction_status,
          t.status,
          t.amount,
          t.credit_amount,
        ])
        .sort(),
    ).toEqual([
      ["granted", "settled", "15.00", "10.0"],
      ["purchased", "pending", "30.00", "20.0"],
    ]);
  });

  it("updates a wallet's fields, and finds, lists and terminates it", async () => {
    const updated = (
      await lago.wallets.updateWallet(walletId, {
        wallet: {
          name: "Credits",
          priority: 3,
          expiration_at: "2099-01-01T00:00:00Z",
          applies_to: { fee_types: ["charge"] },
          metadata: { team: "growth" },
        },
      })
    ).data.wallet;
    expect(updated).toMatchObject({
      name: "Credits",
      code: "prepaid",
      priority: 3,
      expiration_at: "2099-01-01T00:00:00.000Z",
      applies_to: { fee_types: ["charge"] },
      balance_cents: 1500,
    });
    expect((await lago.wallets.findWallet(walletId)).data.wallet.name).toBe("Credits");
    const list = (await lago.wallets.findAllWallets({ external_customer_id: "cust_w" })).data;
    expect(list.wallets.map((w) => svcOf(w))).toEqual([walletId]);
    expect(list.meta).toMatchObject({ current_page: 1, total_count: 1 });
  });

  it("creates and gets transactions: granted in, voided out, the balance equal to what moved", async () => {
    const created = (
      await lago.walletTransactions.createWalletTransaction({
        wallet_transaction: {
          wallet_id: walletId,
          granted_credits: "4.5",
          voided_credits: "2",
          metadata: [{ key: "why", value: "goodwill" }],
        },
      })
    ).data.wallet_transactions;
    expect(created.map((t) => [t.transaction_status, t.transaction_type, t.status, t.amount, t.credit_amount])).toEqual(
      [
        ["granted", "inbound", "settled", "6.75", "4.5"],
        ["voided", "outbound", "settled", "3.00", "2.0"],
      ],
    );
    // GET answers wrapped, as Lago's server does (its document shows it bare): checked by hand
    const got = await asA("GET", `/wallet_transactions/${svcOf(created[0]!)}`);
    expect(got.status).toBe(200);
    expect(openapiErrors("WalletTransactionObject", got.body.wallet_transaction)).toEqual([]);
    expect(got.body.wallet_transaction).toMatchObject({
      svc_id: svcOf(created[0]!),
      metadata: [{ key: "why", value: "goodwill" }],
      svc_wallet_id: walletId,
    });
    // 15.00 + 6.75 − 3.00
    expect((await lago.wallets.findWallet(walletId)).data.wallet).toMatchObject({
      balance_cents: 1875,
      credits_balance: "12.5",
    });
  });

  it("answers unknown ids with 404 and their codes, and an invalid rate with 422", async () => {
    expect(await failure(lago.wallets.findWallet("00000000-0000-4000-8000-000000000000"))).toMatchObject({
      status: 404,
      error: { code: "wallet_not_found" },
    });
    expect(
      await failure(lago.wallets.updateWallet("00000000-0000-4000-8000-000000000000", { wallet: { name: "x" } })),
    ).toMatchObject({ status: 404, error: { code: "wallet_not_found" } });
    expect(
      await failure(
        lago.wallets.createWallet({ wallet: { external_customer_id: "cust_w", rate_amount: "0", currency: "EUR" } }),
      ),
    ).toMatchObject({
      status: 422,
      error: { code: "validation_errors", error_details: { rate_amount: ["invalid_rate_amount"] } },
    });
    expect(await asA("GET", "/wallet_transactions/00000000-0000-4000-8000-000000000000")).toEqual(
      notFound("wallet_transaction_not_found"),
    );
  });

  it("terminates a wallet once, voiding what is left; a terminated wallet takes nothing more", async () => {
    const terminated = (await lago.wallets.destroyWallet(walletId)).data.wallet;
    expect(terminated).toMatchObject({ status: "terminated", balance_cents: 0, credits_balance: "0.0" });
    expect(terminated.terminated_at).not.toBeNull();
    expect((await asA("DELETE", `/wallets/${walletId}`)).body.wallet).toMatchObject({
      status: "terminated",
      terminated_at: terminated.terminated_at,
    });
    const voids = (await asA("GET", `/wallets/${walletId}/wallet_transactions?transaction_status=voided`)).body
      .wallet_transactions;
    expect(voids.map((t: { amount: string }) => t.amount).sort()).toEqual(["18.75", "3.00"]);
    expect(
      await asA("POST", "/wallet_transactions", { wallet_transaction: { wallet_id: walletId, granted_credits: "1" } }),
    ).toEqual(unprocessable({ wallet: ["wallet_is_terminated"] }));
    expect(await asA("PUT", `/wallets/${walletId}`, { wallet: { name: "again" } })).toEqual(
      unprocessable({ wallet: ["wallet_is_terminated"] }),
    );
  });
});

describe("wallet events", () => {
  it("announced each change once: created, updated, transactions created and settled, terminated", async () => {
    const first = (await asA("GET", "/wallets?external_customer_id=cust_w&per_page=100")).body.wallets.at(-1);
    const of = () => {
      const unique = new Map(walletEvents.received.map((e) => [e.id, e]));
      return [...unique.values()].filter(
        (e) => (e.data.wallet?.svc_id ?? e.data.wallet_transaction?.svc_wallet_id) === first.svc_id,
      );
    };
    // created, updated, 4 transactions created (granted, purchased, granted, voided) + the termination's void, 4 settled, terminated
    await waitFor(() => of().length >= 12, { what: "the wallet's events", timeoutMs: 10_000 });
    const types = of().map((e) => e.type.replace("billing.wallet.", ""));
    const count = (t: string) => types.filter((x) => x === t).length;
    expect([count("wallet.created"), count("wallet.updated"), count("wallet.terminated")]).toEqual([1, 1, 1]);
    expect(count("wallet_transaction.created")).toBe(5);
    expect(
      of()
        .filter((e) => e.type.endsWith("wallet_transaction.updated"))
        .map((e) => e.data.wallet_transaction?.status)
        .sort(),
    ).toEqual(["settled", "settled", "settled", "settled"]);
    expect(of().find((e) => e.type.endsWith("wallet.terminated"))!.data.wallet).toMatchObject({
      status: "terminated",
      balance_cents: 0,
    });
  });
});

describe("ongoing balance events", () => {
  it("announces wallet.depleted_ongoing_balance once when usage takes the ongoing balance to zero", async () => {
    // an ordinary organization (system clock): 2 credits, calls at 1.00; 1 call, then 1 more (0 left), then 1 more (below)
    const metric = (
      await asA("POST", "/billable_metrics", {
        billable_metric: { name: "Calls", code: "calls_d", aggregation_type: "count_agg" },
      })
    ).body.billable_metric;
    await asA("POST", "/plans", {
      plan: {
        name: "Usage",
        code: "usage_d",
        interval: "monthly",
        amount_cents: 0,
        amount_currency: "EUR",
        pay_in_advance: false,
        charges: [{ billable_metric_id: metric.svc_id, charge_model: "standard", properties: { amount: "1" } }],
      },
    });
    expect((await asA("POST", "/customers", { customer: { external_id: "cust_d", currency: "EUR" } })).status).toBe(
      200,
    );
    expect(
      (
        await asA("POST", "/subscriptions", {
          subscription: { external_customer_id: "cust_d", plan_code: "usage_d", external_id: "sub_d" },
        })
      ).status,
    ).toBe(200);
    const w = (
      await asA("POST", "/wallets", {
        wallet: { external_customer_id: "cust_d", rate_amount: "1", currency: "EUR", granted_credits: "2" },
      })
    ).body.wallet;
    const usage = async (cents: number) =>
      waitFor(
        async () => (await asA("GET", `/wallets/${w.svc_id}`)).body.wallet.ongoing_usage_balance_cents === cents,
        { what: `ongoing usage ${cents}`, timeoutMs: 15_000 },
      );
    let n = 0;
    const call = () =>
      asA("POST", "/events", {
        event: { transaction_id: `d-${++n}-${w.svc_id}`, external_subscription_id: "sub_d", code: "calls_d" },
      });
    await call();
    await usage(100);
    await call();
    await usage(200);
    await call();
    await usage(300);
    const depleted = () => [
      ...new Map(
        walletEvents.received
          .filter((e) => e.type.endsWith("wallet.depleted_ongoing_balance") && e.data.wallet?.svc_id === w.svc_id)
          .map((e) => [e.id, e]),
      ).values(),
    ];
    await waitFor(() => depleted().length > 0, { what: "the depleted event" });
    await new Promise((r) => setTimeout(r, 500));
    expect(depleted().map((e) => e.data.wallet)).toMatchObject([{ balance_cents: 200, ongoing_usage_cents: 200 }]);
  });
});

describe("wallet rules and errors", () => {
  it("converts credits to whole cents (1,034 credits at 0.001 € are 1.03 €, kept as 1,030 credits)", async () => {
    const w = (
      await asA("POST", "/wallets", {
        wallet: { external_customer_id: "cust_w", rate_amount: "0.001", currency: "EUR", granted_credits: "1034" },
      })
    ).body.wallet;
    expect(openapiErrors("Wallet", { wallet: w })).toEqual([]);
    expect(w).toMatchObject({ balance_cents: 103, credits_balance: "1030.0" });
    // a top-up worth less than a cent is refused, and nothing is stored
    expect(
      await asA("POST", "/wallet_transactions", { wallet_transaction: { wallet_id: w.svc_id, granted_credits: "4" } }),
    ).toEqual(unprocessable({ granted_credits: ["amount_rounds_to_zero"] }));
    expect((await asA("GET", `/wallets/${w.svc_id}/wallet_transactions`)).body.meta.total_count).toBe(1);
  });

  it("refuses bad wallets with every problem at once, and stores nothing", async () => {
    expect(
      await asA("POST", "/wallets", { wallet: { external_customer_id: "nobody", rate_amount: "1", currency: "EUR" } }),
    ).toEqual(notFound("customer_not_found"));
    expect(
      await asA("POST", "/wallets", {
        wallet: {
          external_customer_id: "cust_w",
          rate_amount: "abc",
          currency: "EUR",
          priority: 51,
          paid_top_up_min_amount_cents: 500,
          paid_top_up_max_amount_cents: 100,
        },
      }),
    ).toEqual(
      unprocessable({
        rate_amount: ["invalid_rate_amount"],
        priority: ["value_is_out_of_range"],
        paid_top_up_max_amount_cents: ["must_be_greater_than_or_equal_to_min"],
      }),
    );
    expect(
      await asA("POST", "/wallets", {
        wallet: { external_customer_id: "cust_usd", rate_amount: "1", currency: "EUR" },
      }),
    ).toEqual(unprocessable({ currency: ["currencies_does_not_match"] }));
    expect(
      await asA("POST", "/wallets", {
        wallet: { external_customer_id: "cust_w", rate_amount: "1", currency: "EUR", granted_credits: "-3" },
      }),
    ).toEqual(unprocessable({ granted_credits: ["invalid_granted_credits"] }));
    expect(await asA("POST", "/wallets", { wallet: { external_customer_id: "cust_w", rate_amount: "1" } })).toEqual(
      unprocessable({ currency: ["value_is_mandatory"] }),
    );
    expect((await asA("POST", "/wallets", { nope: {} })).status).toBe(400);
    expect((await asA("GET", "/wallets?external_customer_id=cust_usd")).body.meta.total_count).toBe(0);
  });

  it("keeps paid top-ups within the wallet's limits unless told to ignore them; refuses voiding more than the balance", async () => {
    const w = (
      await asA("POST", "/wallets", {
        wallet: {
          external_customer_id: "cust_usd",
          rate_amount: "1",
          currency: "USD",
          code: "limited",
          paid_top_up_min_amount_cents: 1000,
          paid_top_up_max_amount_cents: 5000,
          granted_credits: "5",
        },
      })
    ).body.wallet;
    const tx = (body: Record<string, unknown>) =>
      asA("POST", "/wallet_transactions", { wallet_transaction: { wallet_id: w.svc_id, ...body } });
    expect(await tx({ paid_credits: "5" })).toEqual(unprocessable({ paid_credits: ["amount_below_minimum"] }));
    expect(await tx({ paid_credits: "51" })).toEqual(unprocessable({ paid_credits: ["amount_above_maximum"] }));
    expect(
      (await tx({ paid_credits: "51", ignore_paid_top_up_limits: true })).body.wallet_transactions[0],
    ).toMatchObject({ status: "pending", amount: "51.00" });
    expect(await tx({ voided_credits: "6" })).toEqual(unprocessable({ voided_credits: ["insufficient_credits"] }));
    // a second wallet of the customer may not take the same code
    expect(
      await asA("POST", "/wallets", {
        wallet: { external_customer_id: "cust_usd", rate_amount: "1", currency: "USD", code: "limited" },
      }),
    ).toEqual(unprocessable({ code: ["value_already_exist"] }));
  });

  it("gives a customer without a currency the wallet's", async () => {
    expect(
      (
        await asA("POST", "/wallets", {
          wallet: { external_customer_id: "cust_none", rate_amount: "2", currency: "GBP" },
        })
      ).status,
    ).toBe(200);
    expect((await asA("GET", "/customers/cust_none")).body.customer.currency).toBe("GBP");
  });

  it("ends an ordinary organization's wallet when its expiration passes, on the system clock", async () => {
    const expiration = new Date(Date.now() + 1_500).toISOString();
    const w = (
      await asA("POST", "/wallets", {
        wallet: {
          external_customer_id: "cust_w",
          rate_amount: "1",
          currency: "EUR",
          granted_credits: "3",
          expiration_at: expiration,
        },
      })
    ).body.wallet;
    expect(w).toMatchObject({ status: "active", balance_cents: 300 });
    const deadline = Date.now() + 15_000;
    let now = w;
    while (now.status === "active" && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      now = (await asA("GET", `/wallets/${w.svc_id}`)).body.wallet;
    }
    expect(now).toMatchObject({ status: "terminated", balance_cents: 0 });
    expect(Date.parse(now.terminated_at)).toBeGreaterThanOrEqual(Date.parse(expiration));
  });

  it("keeps one recurring rule per wallet, updates it by its id, and refuses rules that cannot fire", async () => {
    const created = await lago.wallets.createWallet({
      wallet: {
        external_customer_id: "cust_w",
        rate_amount: "1",
        currency: "EUR",
        recurring_transaction_rules: [{ trigger: "interval", interval: "monthly", granted_credits: "5" }],
      },
    });
    const [rule] = created.data.wallet.recurring_transaction_rules!;
    expect(rule).toMatchObject({
      trigger: "interval",
      interval: "monthly",
      method: "fixed",
      granted_credits: "5",
      paid_credits: "0",
      status: "active",
    });
    type RuleUpdate = NonNullable<
      Parameters<typeof lago.wallets.updateWallet>[1]["wallet"]["recurring_transaction_rules"]
    >[number];
    // the rule named by its svc_id (the client's type says lago_id), with only the field that changes
    const ruleUpdate = { svc_id: svcOf(rule!), paid_credits: "2" } as unknown as RuleUpdate;
    const updated = await lago.wallets.updateWallet(svcOf(created.data.wallet), {
      wallet: { recurring_transaction_rules: [ruleUpdate] },
    });
    expect(updated.data.wallet.recurring_transaction_rules).toMatchObject([
      { svc_id: svcOf(rule!), granted_credits: "5", paid_credits: "2" },
    ]);
    const cleared = await lago.wallets.updateWallet(svcOf(created.data.wallet), {
      wallet: { recurring_transaction_rules: [] },
    });
    expect(cleared.data.wallet.recurring_transaction_rules).toEqual([]);
    const threshold = await lago.wallets.createWallet({
      wallet: {
        external_customer_id: "cust_w",
        rate_amount: "1",
        currency: "EUR",
        recurring_transaction_rules: [{ trigger: "threshold", threshold_credits: "5", paid_credits: "10" }],
      },
    });
    expect(threshold.data.wallet.recurring_transaction_rules).toMatchObject([
      { trigger: "threshold", threshold_credits: "5", paid_credits: "10", status: "active" },
    ]);
    expect(
      await asA("POST", "/wallets", {
        wallet: {
          external_customer_id: "cust_w",
          rate_amount: "1",
          currency: "EUR",
          recurring_transaction_rules: [{ trigger: "threshold", paid_credits: "10" }],
        },
      }),
    ).toEqual(unprocessable({ recurring_transaction_rules: ["invalid_threshold_credits"] }));
    expect(
      await asA("POST", "/wallets", {
        wallet: {
          external_customer_id: "cust_w",
          rate_amount: "1",
          currency: "EUR",
          recurring_transaction_rules: [{ trigger: "interval", interval: "daily", granted_credits: "1" }],
        },
      }),
    ).toEqual(unprocessable({ recurring_transaction_rules: ["invalid_interval"] }));
  });

  it("never shows or changes another organization's wallets and transactions", async () => {
    // the customer's first wallet (it has transactions)
    const w = (await asA("GET", "/wallets?external_customer_id=cust_w&per_page=100")).body.wallets.at(-1);
    const tx = (await asA("GET", `/wallets/${w.svc_id}/wallet_transactions`)).body.wallet_transactions[0];
    expect(await asB("GET", `/wallets/${w.svc_id}`)).toEqual(notFound("wallet_not_found"));
    expect(await asB("PUT", `/wallets/${w.svc_id}`, { wallet: { name: "mine" } })).toEqual(
      notFound("wallet_not_found"),
    );
    expect(await asB("DELETE", `/wallets/${w.svc_id}`)).toEqual(notFound("wallet_not_found"));
    expect(
      await asB("POST", "/wallet_transactions", { wallet_transaction: { wallet_id: w.svc_id, voided_credits: "1" } }),
    ).toEqual(notFound("wallet_not_found"));
    expect(await asB("GET", `/wallets/${w.svc_id}/wallet_transactions`)).toEqual(notFound("wallet_not_found"));
    expect(await asB("GET", `/wallet_transactions/${tx.svc_id}`)).toEqual(notFound("wallet_transaction_not_found"));
    expect((await asB("GET", "/wallets")).body.meta.total_count).toBe(0);
    expect((await asA("GET", `/wallets/${w.svc_id}`)).body.wallet.balance_cents).toBe(w.balance_cents);
  });
});
