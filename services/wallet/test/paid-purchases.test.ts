import { randomUUID } from "node:crypto";
import type { Connection } from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "@billing/clock";
import { AppError } from "@billing/errors";
import { connectMongo, initModels } from "@billing/mongo";
import { infraUrls, uniqueName, dropTestDatabase } from "@billing/testkit";
import type { Customers } from "../src/peers/customers";
import { createWalletTransactions } from "../src/use-cases/transactions/create-wallet-transactions";
import { settlePaidPurchase } from "../src/use-cases/transactions/settle-paid-purchase";
import { createWallet } from "../src/use-cases/wallets/create-wallet";
import { wireWallet, type WalletWiring } from "../src/wiring";

/**
 * A paid purchase is credited exactly once (issue 29) on the real MongoDB test server, from several
 * replicas: whatever order its invoice's statuses come in, and also when the call that made its
 * invoice passed its deadline (the purchase failed) while invoicing made the invoice, paid later.
 */
const dbName = uniqueName("wallet_paid_purchases");
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
/** invoicing answers past its deadline for these purchases (it makes their invoice all the same) */
const slow = new Set<string>();
const connections: Connection[] = [];
let replicas: WalletWiring[];

beforeAll(async () => {
  for (let i = 0; i < 2; i++) connections.push(await connectMongo({ url: infraUrls().mongoUrl, dbName }));
  const invoicing = {
    creditInvoice: async (_org: string, p: { wallet_transaction_id: string; name: string | null }) => {
      if (p.name && slow.has(p.name)) throw new AppError("unavailable", "deadline_exceeded");
      return `invoice-of-${p.wallet_transaction_id}`;
    },
    ongoingUsage: async () => [],
  };
  replicas = connections.map((c) => wireWallet(c, { clock, customers, invoicing }));
  await initModels(connections[0]!);
});

afterAll(async () => {
  await dropTestDatabase(connections[0]);
  await Promise.all(connections.map((c) => c.close()));
});

const balanceOf = async (walletId: string) => (await replicas[0]!.deps.wallets.find(org, walletId))!.balance_cents;

describe("a paid purchase", () => {
  it("is credited once when its invoice is paid after a failed payment, however often and wherever that is told", async () => {
    const { deps } = replicas[0]!;
    const wallet = await createWallet(deps, org, {
      external_customer_id: "c1",
      rate_amount: "1",
      currency: "EUR",
      name: "W",
      code: "w1",
    });
    const [purchase] = await createWalletTransactions(deps, org, { wallet_id: wallet.id, paid_credits: "10" });
    await deps.wallets.failPending(purchase!.id, "payment_failed", clock.now());
    const told = await Promise.all(
      replicas.flatMap((r) => [1, 2].map(() => settlePaidPurchase(r.deps, purchase!, purchase!.invoice_id!))),
    );
    expect(told.every((t) => t.status === "settled")).toBe(true);
    // a late failure changes nothing
    await deps.wallets.failPending(purchase!.id, "payment_failed", clock.now());
    expect(await deps.wallets.findTransaction(org, purchase!.id)).toMatchObject({ status: "settled" });
    expect(await balanceOf(wallet.id)).toBe(1_000);
  });

  it("is credited when its invoice, made after the call passed its deadline, is paid", async () => {
    const { deps } = replicas[0]!;
    const wallet = await createWallet(deps, org, {
      external_customer_id: "c2",
      rate_amount: "1",
      currency: "EUR",
      name: "W",
      code: "w2",
    });
    slow.add("slow top-up");
    await expect(
      createWalletTransactions(deps, org, { wallet_id: wallet.id, paid_credits: "7", name: "slow top-up" }),
    ).rejects.toMatchObject({ kind: "unavailable" });
    const stored = await connections[0]!
      .collection<{ _id: string }>("wallet_transactions")
      .findOne({ wallet_id: wallet.id });
    const purchase = await deps.wallets.findTransaction(org, stored!._id);
    expect(purchase).toMatchObject({ status: "failed", failure: "invoice_not_created" });
    const settled = await settlePaidPurchase(replicas[1]!.deps, purchase!, `invoice-of-${purchase!.id}`);
    expect(settled).toMatchObject({ status: "settled" });
    expect(await deps.wallets.findTransaction(org, purchase!.id)).toMatchObject({
      status: "settled",
      invoice_id: `invoice-of-${purchase!.id}`,
    });
    expect(await balanceOf(wallet.id)).toBe(700);
  });
});
