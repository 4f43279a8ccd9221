import { randomUUID } from "node:crypto";
import type { Connection } from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "@billing/clock";
import { AppError } from "@billing/errors";
import { connectMongo, initModels } from "@billing/mongo";
import { infraUrls, uniqueName, dropTestDatabase } from "@billing/testkit";
import type { Customers } from "../src/peers/customers";
import { consumeCredits } from "../src/use-cases/transactions/consume-credits";
import { createWalletTransactions } from "../src/use-cases/transactions/create-wallet-transactions";
import { createWallet } from "../src/use-cases/wallets/create-wallet";
import { terminateWallet } from "../src/use-cases/wallets/terminate-wallet";
import { wireWallet, type WalletWiring } from "../src/wiring";

/**
 * The wallet ledger on the real MongoDB test server, from several replicas (each its own
 * connection, as separate processes would have): movements are applied once and in one order,
 * the balance always equals the ledger's sum and never goes below zero.
 */
const REPLICAS = 4;
const dbName = uniqueName("wallet_ledger");
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
  for (let i = 0; i < REPLICAS; i++) connections.push(await connectMongo({ url: infraUrls().mongoUrl, dbName }));
  // a purchase's credit invoice is the invoicing service's (the e2e suite): here it is only named
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

async function expectLedgerHolds(walletId: string) {
  const { deps } = replicas[0]!;
  const wallet = (await deps.wallets.find(org, walletId))!;
  const sum = await deps.wallets.ledgerSum(walletId);
  expect(wallet.balance_cents).toBe(sum.balance_cents);
  expect(wallet.balance_cents).toBeGreaterThanOrEqual(0);
  expect(sum.applied).toBe(wallet.ledger.seq);
  const sequences = (
    await replicas[0]!.models.transactions
      .find({ wallet_id: walletId, sequence: { $ne: null } }, { sequence: 1 })
      .lean<Array<{ sequence: number }>>()
  )
    .map((t) => t.sequence)
    .sort((a, b) => a - b);
  expect(sequences).toEqual(sequences.map((_, i) => i + 1));
  return wallet;
}

describe("wallet ledger", () => {
  it("applies 1,000 concurrent top-ups and voids from four replicas once each: balance = ledger sum, never negative", async () => {
    const wallet = await createWallet(replicas[0]!.deps, org, {
      external_customer_id: "c1",
      rate_amount: "1",
      currency: "EUR",
      granted_credits: "100",
    });
    let refused = 0;
    const moves = Array.from({ length: 1000 }, (_, i) => {
      const deps = replicas[i % REPLICAS]!.deps;
      const input =
        i % 2 === 0 ? { wallet_id: wallet.id, granted_credits: "1" } : { wallet_id: wallet.id, voided_credits: "1.5" };
      return createWalletTransactions(deps, org, input).catch((err) => {
        // a void larger than the balance as read is refused (422), nothing stored
        if (err instanceof AppError && err.details?.voided_credits) return void refused++;
        throw err;
      });
    });
    const done = (await Promise.all(moves)).flatMap((txs) => txs ?? []);
    const after = await expectLedgerHolds(wallet.id);
    const settled = done.filter((t) => t.status === "settled");
    const failed = done.filter((t) => t.status === "failed");
    expect(failed.every((t) => t.failure === "insufficient_credits")).toBe(true);
    // what settled is exactly what moved: 100 € + settled top-ups − settled voids
    const moved = settled.reduce(
      (sum, t) => sum + (t.transaction_type === "inbound" ? t.amount_cents : -t.amount_cents),
      10_000,
    );
    expect(after.balance_cents).toBe(moved);
    expect(settled.length + failed.length + refused).toBe(1000);
    // the voids outran the top-ups: some were refused up front or failed in the ledger
    expect(failed.length + refused).toBeGreaterThan(0);
    expect(after.ledger.seq).toBe(settled.length + 1);
  }, 120_000);

  it("completes a movement a crashed replica left half done, and applies nothing twice on a retry", async () => {
    const { deps, models } = replicas[1]!;
    const wallet = await createWallet(deps, org, {
      external_customer_id: "c2",
      rate_amount: "1",
      currency: "EUR",
      granted_credits: "10",
    });
    const [pending] = await createWalletTransactions(deps, org, { wallet_id: wallet.id, paid_credits: "5" });
    // a replica moved the head for this transaction, then died before marking it
    await models.wallets.collection.updateOne({ _id: wallet.id } as never, {
      $set: {
        balance_cents: 1500,
        ledger: { seq: 2, block: [{ tx: pending!.id, seq: 2, amount_cents: 500, failure: null }] },
      },
    });
    // the next movement, on another replica, marks it first
    const [granted] = await createWalletTransactions(replicas[2]!.deps, org, {
      wallet_id: wallet.id,
      granted_credits: "1",
    });
    expect(granted!.sequence).toBe(3);
    expect(await deps.wallets.findTransaction(org, pending!.id)).toMatchObject({ status: "settled", sequence: 2 });
    // retries of both change nothing
    await replicas[3]!.deps.ledger.apply(pending!.id, clock.now());
    await replicas[0]!.deps.ledger.apply(granted!.id, clock.now());
    expect((await expectLedgerHolds(wallet.id)).balance_cents).toBe(1600);
  });

  it("takes an invoice's credits once however many replicas retry it, announcing it once, as created and settled", async () => {
    const wallet = await createWallet(replicas[0]!.deps, org, {
      external_customer_id: "c4",
      rate_amount: "1",
      currency: "EUR",
      granted_credits: "10",
    });
    const take = (invoice: string, cents: number) =>
      Promise.all(
        replicas.flatMap((r) =>
          [1, 2].map(() =>
            consumeCredits(r.deps, org, { wallet_id: wallet.id, invoice_id: invoice, amount_cents: cents }),
          ),
        ),
      );
    const taken = await take("inv-1", 600);
    expect(new Set(taken.map((t) => t.transaction.id)).size).toBe(1);
    expect(
      taken.every(
        (t) => t.transaction.status === "settled" && t.transaction.amount_cents === 600 && t.transaction.sequence === 2,
      ),
    ).toBe(true);
    // more than is left: refused, once, and nothing taken
    const refused = await take("inv-2", 500);
    expect(
      refused.every((t) => t.transaction.status === "failed" && t.transaction.failure === "insufficient_credits"),
    ).toBe(true);
    const outbox = (id: string) =>
      replicas[0]!.models.transactions
        .findById(id, { outbox: 1 })
        .lean<{ outbox: Array<{ type: string; data: { wallet_transaction: { status: string } } }> }>();
    for (const [id, status] of [
      [taken[0]!.transaction.id, "settled"],
      [refused[0]!.transaction.id, "failed"],
    ] as const) {
      const events = (await outbox(id))!.outbox;
      expect(events.map((e) => [e.type, e.data.wallet_transaction.status])).toEqual([
        ["billing.wallet.wallet_transaction.created", status],
      ]);
    }
    // another organization's call reaches nothing
    await expect(
      consumeCredits(replicas[1]!.deps, randomUUID(), { wallet_id: wallet.id, invoice_id: "inv-3", amount_cents: 1 }),
    ).rejects.toMatchObject({ httpStatus: 404 });
    expect((await expectLedgerHolds(wallet.id)).balance_cents).toBe(400);
  });

  it("terminates once under concurrent calls, voiding exactly what was left", async () => {
    const wallet = await createWallet(replicas[0]!.deps, org, {
      external_customer_id: "c3",
      rate_amount: "2",
      currency: "EUR",
      granted_credits: "7",
    });
    const ends = await Promise.all(replicas.map((r) => terminateWallet(r.deps, org, wallet.id)));
    expect(ends.every((w) => w.status === "terminated" && w.balance_cents === 0)).toBe(true);
    expect(new Set(ends.map((w) => w.terminated_at!.toISOString())).size).toBe(1);
    const voids = await replicas[0]!.deps.wallets.listTransactions(
      org,
      wallet.id,
      { transaction_status: "voided" },
      { page: 1, perPage: 10 },
    );
    expect(voids.items.map((t) => t.amount_cents)).toEqual([1400]);
    await expectLedgerHolds(wallet.id);
  });

  it("marks an organization before its first wallet, so the ongoing-usage consumer skips only organizations that never held one; marks wallets stored before marks existed once", async () => {
    const own = randomUUID();
    const { deps, models } = replicas[0]!;
    expect(await deps.wallets.holdsWallets(own)).toBe(false);
    await createWallet(deps, own, {
      external_customer_id: "c_marked",
      rate_amount: "1",
      currency: "EUR",
      granted_credits: "1",
    });
    // another replica (another process) sees the mark at once
    expect(await replicas[1]!.deps.wallets.holdsWallets(own)).toBe(true);
    expect(await replicas[2]!.deps.wallets.holdsWallets(randomUUID())).toBe(false);

    // wallets stored before marks existed: the first start marks their organizations, once
    await models.walletOrganizations.collection.deleteMany({});
    expect(await replicas[3]!.deps.wallets.holdsWallets(own)).toBe(false);
    await replicas[3]!.deps.wallets.markHolders(clock.now());
    expect(await replicas[3]!.deps.wallets.holdsWallets(own)).toBe(true);
    await models.walletOrganizations.collection.deleteOne({ _id: own });
    await replicas[3]!.deps.wallets.markHolders(clock.now()); // done before: not again
    expect(await models.walletOrganizations.collection.countDocuments({ _id: own })).toBe(0);
  });
});
