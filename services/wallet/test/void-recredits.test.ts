import { randomUUID } from "node:crypto";
import type { Connection } from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "@billing/clock";
import { connectMongo, initModels } from "@billing/mongo";
import { infraUrls, uniqueName, dropTestDatabase } from "@billing/testkit";
import type { Customers } from "../src/peers/customers";
import { consumeCredits } from "../src/use-cases/transactions/consume-credits";
import { recreditVoidedInvoice } from "../src/use-cases/transactions/recredit-voided-invoice";
import { creditInvoiceWallet, voidCreditNoteCredits } from "../src/use-cases/transactions/credit-invoice-wallet";
import { createWalletTransactions } from "../src/use-cases/transactions/create-wallet-transactions";
import { createWallet } from "../src/use-cases/wallets/create-wallet";
import { terminateWallet } from "../src/use-cases/wallets/terminate-wallet";
import { wireWallet, type WalletWiring } from "../src/wiring";

/**
 * A voided invoice's prepaid credits given back (Lago's WalletTransactions::RecreditService) on the
 * real MongoDB test server, from several replicas: one inbound transaction per credit taken,
 * whatever the retries, the consumed credits lowered, nothing to a terminated wallet.
 */
const dbName = uniqueName("wallet_void_recredits");
const clock = new ManualClock(new Date("2024-03-01T00:00:00Z"));
const org = randomUUID();
const customers: Customers = {
  find: async (_org, externalId) => ({
    id: `cus-${externalId}`,
    external_id: externalId,
    currency: "EUR",
    billing_entity_code: "default",
  }),
  setCurrency: async () => {
    throw new Error("not expected");
  },
  frozenTime: async () => null,
};
const connections: Connection[] = [];
let replicas: WalletWiring[];

beforeAll(async () => {
  for (let i = 0; i < 3; i++) connections.push(await connectMongo({ url: infraUrls().mongoUrl, dbName }));
  const invoicing = {
    creditInvoice: async (_org: string, p: { wallet_transaction_id: string }) =>
      `invoice-of-${p.wallet_transaction_id}`,
    ongoingUsage: async () => [],
  };
  replicas = connections.map((c) => wireWallet(c, { clock, customers, invoicing }));
  await initModels(connections[0]!);
});

afterAll(async () => {
  await dropTestDatabase(connections[0]);
  await Promise.all(connections.map((c) => c.close()));
});

describe("a voided invoice's prepaid credits", () => {
  it("come back once to each wallet it took from, however many replicas retry, and are no longer consumed", async () => {
    const { deps } = replicas[0]!;
    const a = await createWallet(deps, org, {
      external_customer_id: "c1",
      rate_amount: "1",
      currency: "EUR",
      granted_credits: "10",
      name: "A",
      code: "a",
    });
    const b = await createWallet(deps, org, {
      external_customer_id: "c1",
      rate_amount: "1",
      currency: "EUR",
      granted_credits: "5",
      name: "B",
      code: "b",
    });
    await consumeCredits(deps, org, { wallet_id: a.id, invoice_id: "inv-1", amount_cents: 600 });
    await consumeCredits(deps, org, { wallet_id: b.id, invoice_id: "inv-1", amount_cents: 250 });
    await consumeCredits(deps, org, { wallet_id: a.id, invoice_id: "inv-2", amount_cents: 100 });

    const runs = await Promise.all(
      replicas.flatMap((r) => [1, 2].map(() => recreditVoidedInvoice(r.deps, org, "inv-1"))),
    );
    expect(new Set(runs.flatMap((run) => run.map((r) => r.transaction.id))).size).toBe(2);
    for (const run of runs) {
      expect(
        run
          .map((r) => ({
            wallet: r.transaction.wallet_id,
            status: r.transaction.status,
            cents: r.transaction.amount_cents,
          }))
          .sort((x, y) => x.cents - y.cents),
      ).toEqual([
        { wallet: b.id, status: "settled", cents: 250 },
        { wallet: a.id, status: "settled", cents: 600 },
      ]);
    }
    const given = runs[0]!.find((r) => r.transaction.wallet_id === a.id)!.transaction;
    expect(given).toMatchObject({
      transaction_status: "granted",
      transaction_type: "inbound",
      voided_invoice_id: "inv-1",
      invoice_id: null,
    });

    const walletA = (await deps.wallets.find(org, a.id))!;
    const walletB = (await deps.wallets.find(org, b.id))!;
    // 10 € − 6 € − 1 € + 6 € back; only inv-2's euro stays consumed
    expect(walletA).toMatchObject({ balance_cents: 900, consumed_amount_cents: 100 });
    expect(walletB).toMatchObject({ balance_cents: 500, consumed_amount_cents: 0 });
    expect((await deps.wallets.ledgerSum(a.id)).balance_cents).toBe(900);
  });

  it("gives nothing for an invoice that took nothing, nor to a terminated wallet", async () => {
    const { deps } = replicas[1]!;
    expect(await recreditVoidedInvoice(deps, org, "inv-none")).toEqual([]);
    const w = await createWallet(deps, org, {
      external_customer_id: "c2",
      rate_amount: "1",
      currency: "EUR",
      granted_credits: "10",
    });
    await consumeCredits(deps, org, { wallet_id: w.id, invoice_id: "inv-3", amount_cents: 400 });
    await terminateWallet(deps, org, w.id);
    const [back] = await recreditVoidedInvoice(deps, org, "inv-3");
    expect(back!.transaction).toMatchObject({ status: "failed", failure: "wallet_is_terminated" });
    expect((await deps.wallets.find(org, w.id))!.balance_cents).toBe(0);
    // another organization sees none of it
    expect(await recreditVoidedInvoice(deps, randomUUID(), "inv-3")).toEqual([]);
  });

  describe("a refunded credit invoice's credits", () => {
    it("are voided once per credit note, however many replicas retry, and never below zero", async () => {
      const { deps } = replicas[0]!;
      const w = await createWallet(deps, org, {
        external_customer_id: "c3",
        rate_amount: "1",
        currency: "EUR",
        granted_credits: "10",
      });
      const [grant] = await createWalletTransactions(deps, org, { wallet_id: w.id, granted_credits: "2" });
      expect(await creditInvoiceWallet(deps, org, grant!.id)).toMatchObject({
        id: w.id,
        status: "active",
        balance_cents: 1_200,
      });
      const runs = await Promise.all(
        replicas.flatMap((r) =>
          [1, 2].map(() =>
            voidCreditNoteCredits(r.deps, org, { wallet_id: w.id, credit_note_id: "cn-1", amount_cents: 300 }),
          ),
        ),
      );
      expect(new Set(runs.map((t) => t.id)).size).toBe(1);
      expect(runs[0]).toMatchObject({
        status: "settled",
        transaction_status: "voided",
        transaction_type: "outbound",
        amount_cents: 300,
        credit_note_id: "cn-1",
      });
      expect((await deps.wallets.find(org, w.id))!.balance_cents).toBe(900);
      // more than is left: failed, nothing taken
      expect(
        await voidCreditNoteCredits(deps, org, { wallet_id: w.id, credit_note_id: "cn-2", amount_cents: 1_000 }),
      ).toMatchObject({ status: "failed", failure: "insufficient_credits" });
      expect((await deps.wallets.find(org, w.id))!.balance_cents).toBe(900);
      await expect(creditInvoiceWallet(deps, randomUUID(), grant!.id)).rejects.toMatchObject({ kind: "not_found" });
    });
  });
});
