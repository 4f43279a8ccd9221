import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { mongo } from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  reconcile,
  type AppliedCouponDoc,
  type Breach,
  type InvoiceCounterDoc,
  type InvoiceDoc,
  type Invariant,
  type PaymentDoc,
  type ReconcileResult,
  type RefundDoc,
  type WalletDoc,
} from "@billing/reconcile";
import { repoRoot, waitFor } from "@billing/testkit";
import { startE2E, type E2E } from "../support/platform";
import { checkedApi, ok, type Api, type Json } from "../support/scenario";

/**
 * Reconciliation (issue 29) over a real story: a wallet with granted credits and a paid top-up
 * settled by PUT /invoices/{id}, a taxed invoice that takes a coupon and the wallet's credits and
 * is partly paid by hand, an invoice charged through the sandbox provider and partly refunded by
 * a credit note, and one whose charge is declined. Reconcile finds nothing; then one record per
 * invariant is corrupted in MongoDB and each breach is reported with its records, by the function
 * and by the CLI (exit status 1).
 */
let e2e: E2E;
let as: Api;
let organizationId: string;
let dbPrefix: string;
let client: mongo.MongoClient;
/** the ids of the story's records */
const story = { wallet: "", creditInvoice: "", acmeInvoice: "", bobInvoice: "", note: "", carlInvoice: "" };

const run = promisify(execFile);
const until = async <T>(what: string, check: () => Promise<T | undefined | false>): Promise<T> =>
  (await waitFor(check, { what, timeoutMs: 30_000 })) as T;
const invoice = async (id: string) => (await ok(as("GET", `/invoices/${id}`))).invoice as Json;
const invoicesOf = async (externalId: string, type: string) =>
  ((await ok(as("GET", `/invoices?external_customer_id=${externalId}&per_page=100`))).invoices as Json[]).filter(
    (i) => i.invoice_type === type,
  );
/** The customer's one invoice of that type once it is finalized (and, when asked, its payment status is that). */
const finalizedOf = (externalId: string, type: string, paymentStatus?: string) =>
  until(`${externalId}'s ${type} invoice`, async () => {
    const [listed] = await invoicesOf(externalId, type);
    const current = listed ? await invoice(listed.svc_id as string) : undefined;
    return current?.status === "finalized" && (!paymentStatus || current.payment_status === paymentStatus)
      ? current
      : undefined;
  });
const db = (service: string) => client.db(`${dbPrefix}_${service}`);
/** Judged at once: the story waits for every effect it causes before reconciling. */
const check = () => reconcile({ mongoUrl: e2e.mongoUrl, dbPrefix, organizationId, graceMs: 0 });
const cli = async (...args: string[]): Promise<{ code: number; stdout: string }> => {
  try {
    const { stdout } = await run(process.execPath, [join(repoRoot(), "libs/reconcile/dist/cli.js"), ...args], {
      env: { ...process.env, MONGO_URL: e2e.mongoUrl },
    });
    return { code: 0, stdout };
  } catch (err) {
    const failed = err as { code?: number; stdout?: string; stderr?: string };
    if (typeof failed.code !== "number") throw err;
    return { code: failed.code, stdout: failed.stdout ?? "" };
  }
};

beforeAll(async () => {
  e2e = await startE2E("reconcile");
  dbPrefix = e2e.platform.env.customer.MONGO_DB!.replace(/_customer$/, "");
  const org = await e2e.organization("Reconcile Co");
  organizationId = org.organization_id;
  as = checkedApi(e2e.platform.baseUrl, org.api_key);
  client = await new mongo.MongoClient(e2e.mongoUrl).connect();

  await ok(as("POST", "/taxes", { tax: { name: "VAT", code: "vat", rate: "20" } }));
  await ok(
    as("POST", "/plans", {
      plan: {
        name: "Pro",
        code: "pro",
        interval: "monthly",
        amount_cents: 10_000,
        amount_currency: "EUR",
        pay_in_advance: true,
        charges: [],
      },
    }),
  );
  await ok(
    as("POST", "/coupons", {
      coupon: {
        name: "Welcome",
        code: "welcome",
        coupon_type: "fixed_amount",
        amount_cents: 1_000,
        amount_currency: "EUR",
        frequency: "once",
        expiration: "no_expiration",
      },
    }),
  );
  await ok(
    as("POST", "/customers", { customer: { external_id: "acme", name: "Acme", currency: "EUR", tax_codes: ["vat"] } }),
  );
  await ok(
    as("POST", "/customers", {
      customer: {
        external_id: "bob",
        name: "Bob",
        currency: "EUR",
        billing_configuration: { payment_provider: "sandbox", provider_customer_id: "4242424242424242" },
      },
    }),
  );
  await ok(
    as("POST", "/customers", {
      customer: {
        external_id: "carl",
        name: "Carl",
        currency: "EUR",
        billing_configuration: { payment_provider: "sandbox", provider_customer_id: "4000000000000002" },
      },
    }),
  );

  // a wallet: 5.00 granted at once, 20.00 bought and settled once its credit invoice is paid
  const wallet = (
    await ok(
      as("POST", "/wallets", {
        wallet: {
          external_customer_id: "acme",
          currency: "EUR",
          rate_amount: "1",
          granted_credits: "5",
          paid_credits: "20",
        },
      }),
    )
  ).wallet as Json;
  story.wallet = wallet.svc_id as string;
  const topUp = await finalizedOf("acme", "credit");
  story.creditInvoice = topUp.svc_id as string;
  await ok(as("PUT", `/invoices/${story.creditInvoice}`, { invoice: { payment_status: "succeeded" } }));
  await until(
    "the top-up settled",
    async () => (await ok(as("GET", `/wallets/${story.wallet}`))).wallet.balance_cents === 2_500,
  );

  // 100.00 in advance − the 10.00 coupon + 20 % VAT on 90.00 − the wallet's 25.00 = 83.00, of which 30.00 paid by hand
  await ok(
    as("POST", "/applied_coupons", { applied_coupon: { external_customer_id: "acme", coupon_code: "welcome" } }),
  );
  await ok(
    as("POST", "/subscriptions", {
      subscription: {
        external_customer_id: "acme",
        plan_code: "pro",
        external_id: "sub_acme",
        billing_time: "anniversary",
      },
    }),
  );
  const acme = await finalizedOf("acme", "subscription");
  expect(acme).toMatchObject({
    fees_amount_cents: 10_000,
    coupons_amount_cents: 1_000,
    taxes_amount_cents: 1_800,
    prepaid_credit_amount_cents: 2_500,
    total_amount_cents: 8_300,
  });
  story.acmeInvoice = acme.svc_id as string;
  await ok(
    as("POST", "/payments", { payment: { invoice_id: story.acmeInvoice, amount_cents: 3_000, reference: "wire 1" } }),
  );

  // charged through the sandbox provider (paid), then 4.00 refunded by a credit note
  await ok(
    as("POST", "/subscriptions", {
      subscription: {
        external_customer_id: "bob",
        plan_code: "pro",
        external_id: "sub_bob",
        billing_time: "anniversary",
      },
    }),
  );
  const bob = await finalizedOf("bob", "subscription", "succeeded");
  story.bobInvoice = bob.svc_id as string;
  const fee = (bob.fees as Json[]).find((f) => f.item.type === "subscription")!;
  const note = (
    await ok(
      as("POST", "/credit_notes", {
        credit_note: {
          invoice_id: bob.svc_id,
          reason: "other",
          refund_amount_cents: 400,
          items: [{ fee_id: fee.svc_id, amount_cents: 400 }],
        },
      }),
    )
  ).credit_note as Json;
  story.note = note.svc_id as string;
  await until(
    "the refund's outcome",
    async () => (await ok(as("GET", `/credit_notes/${story.note}`))).credit_note.refund_status === "succeeded",
  );

  // declined by the provider: still due, its failed attempt recorded
  await ok(
    as("POST", "/subscriptions", {
      subscription: {
        external_customer_id: "carl",
        plan_code: "pro",
        external_id: "sub_carl",
        billing_time: "anniversary",
      },
    }),
  );
  story.carlInvoice = (await finalizedOf("carl", "subscription", "failed")).svc_id as string;
}, 120_000);

afterAll(async () => {
  await client?.close();
  await e2e?.stop();
});

const ofInvariant = (result: ReconcileResult, invariant: Invariant): Breach[] =>
  result.breaches.filter((b) => b.invariant === invariant);
const ids = (b: Breach) => b.records.map((r) => `${r.type}:${r.id}`);

describe("reconcile", () => {
  it("finds the story clean, every invariant checked, and the CLI exits 0", async () => {
    const result = await check();
    expect(result.breaches).toEqual([]);
    expect(result.organizations).toEqual([organizationId]);
    for (const [invariant, n] of Object.entries(result.checked)) expect(n, invariant).toBeGreaterThan(0);
    const { code, stdout } = await cli(
      "--organization",
      organizationId,
      "--db-prefix",
      dbPrefix,
      "--grace-seconds",
      "0",
    );
    expect(code, stdout).toBe(0);
    expect(stdout).toContain("OK: no breach");
  });

  it("reports one corrupted record per invariant with the records involved, and the CLI exits 1", async () => {
    const wallet = db("wallet");
    const invoicing = db("invoicing");
    const payment = db("payment");
    // wallet_ledger: a balance the ledger does not make
    await wallet.collection<WalletDoc>("wallets").updateOne({ _id: story.wallet }, { $inc: { balance_cents: 100 } });
    // invoice_totals: a total its parts do not make
    await invoicing
      .collection<InvoiceDoc>("invoices")
      .updateOne({ _id: story.acmeInvoice }, { $inc: { "amounts.total_amount_cents": 100 } });
    // invoice_payments: a second succeeded payment beyond what was due, recorded as no overpayment
    await payment.collection<PaymentDoc>("payments").insertOne({
      _id: "reconcile-extra-payment",
      organization_id: organizationId,
      invoice_id: story.acmeInvoice,
      amount_cents: 9_000,
      type: "manual",
      payment_status: "succeeded",
      applied: true,
      created_at: new Date(),
      updated_at: new Date(),
    });
    // coupon_consumption: the coupon takes 5.00 more from an invoice that does not exist
    await db("catalog")
      .collection<AppliedCouponDoc>("applied_coupons")
      .updateOne(
        { organization_id: organizationId },
        {
          $push: {
            credits: {
              id: "phantom-credit",
              invoice_id: "phantom-invoice",
              amount_cents: 500,
              amount_currency: "EUR",
              created_at: new Date(),
            },
          },
        },
      );
    // invoice_numbering: the billing entity's counter moved past the last invoice it numbered
    await invoicing
      .collection<InvoiceCounterDoc>("counters")
      .updateOne({ _id: { $regex: `^entity:${organizationId}:` } }, { $inc: { last: 1 } });
    // provider_payment_attempt: the declined invoice's attempt gone
    await payment.collection<PaymentDoc>("payments").deleteMany({ invoice_id: story.carlInvoice });
    // credit_note_refund: the refund's record gone
    await payment.collection<RefundDoc>("refunds").deleteMany({ credit_note_id: story.note });
    // top_up_settlement: the credit invoice no longer paid, its purchase still settled
    await invoicing
      .collection<InvoiceDoc>("invoices")
      .updateOne({ _id: story.creditInvoice }, { $set: { payment_status: "pending" } });

    const result = await check();
    const expected: Record<Invariant, { code: string; records: string[] }> = {
      wallet_ledger: { code: "balance_mismatch", records: [`wallet:${story.wallet}`] },
      invoice_totals: { code: "amount_mismatch", records: [`invoice:${story.acmeInvoice}`] },
      invoice_payments: {
        code: "paid_beyond_total",
        records: [`invoice:${story.acmeInvoice}`, "payment:reconcile-extra-payment"],
      },
      coupon_consumption: { code: "consumed_beyond_amount", records: [`invoice:${story.acmeInvoice}`] },
      invoice_numbering: { code: "number_gap", records: [] },
      provider_payment_attempt: { code: "no_provider_attempt", records: [`invoice:${story.carlInvoice}`] },
      credit_note_refund: { code: "refund_missing", records: [`credit_note:${story.note}`] },
      top_up_settlement: { code: "settled_top_up_not_paid", records: [`invoice:${story.creditInvoice}`] },
    };
    for (const [invariant, { code, records }] of Object.entries(expected) as Array<
      [Invariant, { code: string; records: string[] }]
    >) {
      const found = ofInvariant(result, invariant).find((b) => b.code === code);
      expect(found, `${invariant}/${code} in ${JSON.stringify(ofInvariant(result, invariant), null, 1)}`).toBeDefined();
      expect(found!.organization_id).toBe(organizationId);
      for (const r of records) expect(ids(found!)).toContain(r);
    }
    expect(ofInvariant(result, "wallet_ledger")[0]).toMatchObject({ expected: 2_500 - 2_500, actual: 100 });
    expect(ofInvariant(result, "invoice_totals").find((b) => b.code === "amount_mismatch")).toMatchObject({
      expected: 8_300,
      actual: 8_400,
    });
    expect(ofInvariant(result, "coupon_consumption").find((b) => b.code === "consumed_beyond_amount")).toMatchObject({
      expected: 1_000,
      actual: 1_500,
    });
    expect(ofInvariant(result, "invoice_numbering").find((b) => b.code === "number_gap")!.records[0]!.type).toBe(
      "invoice_counter",
    );
    expect(ofInvariant(result, "top_up_settlement")[0]!.records.map((r) => r.type)).toEqual([
      "invoice",
      "wallet_transaction",
    ]);

    const { code, stdout } = await cli(
      "--organization",
      organizationId,
      "--db-prefix",
      dbPrefix,
      "--grace-seconds",
      "0",
      "--json",
    );
    expect(code).toBe(1);
    const printed = JSON.parse(stdout) as ReconcileResult & { ok: boolean };
    expect(printed.ok).toBe(false);
    expect(printed.breaches.map((b) => `${b.invariant}/${b.code}`)).toEqual(
      result.breaches.map((b) => `${b.invariant}/${b.code}`),
    );
    const text = await cli("--all", "--db-prefix", dbPrefix, "--grace-seconds", "0");
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(`BREACH wallet_ledger/balance_mismatch organization ${organizationId}`);
    expect(text.stdout).toMatch(/FAILED: \d+ breach\(es\)$/m);
  });
});
