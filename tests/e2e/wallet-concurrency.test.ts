import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Rpc, type WalletRpc } from "@billing/contracts";
import { RpcClient } from "@billing/grpc";
import { freePort, repoRoot, waitFor } from "@billing/testkit";
import { api } from "../support/api";
import { startE2E, type E2E } from "../support/platform";

/**
 * One wallet, three wallet service processes (the platform's and two more on the same database):
 * 1,000 debits and top-ups sent to all of them at once, each a separate request. Every movement
 * is decided once and in one order: the balance equals what the settled movements moved (and the
 * ledger's own sum), and never went below zero.
 */
const MOVES = 1_000;
/** The i-th movement's invoice id: a UUID, as the invoicing service's are (the API shows it as svc_invoice_id). */
const invoiceId = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
let e2e: E2E;
let call: ReturnType<typeof api>;
let organizationId: string;
const extra: ChildProcess[] = [];
const clients: Array<RpcClient<WalletRpc>> = [];

beforeAll(async () => {
  e2e = await startE2E("wallet_concurrency");
  const org = await e2e.organization("Hot wallet");
  organizationId = org.organization_id;
  call = api(e2e.platform.baseUrl, org.api_key);
  expect((await call("POST", "/customers", { customer: { external_id: "hot", currency: "EUR" } })).status).toBe(200);
  const ports = [Number(e2e.platform.env.wallet.GRPC_PORT)];
  for (let i = 0; i < 2; i++) {
    const port = await freePort();
    ports.push(port);
    extra.push(
      spawn(process.execPath, [join(repoRoot(), "services", "wallet", "dist", "main.js")], {
        env: { ...process.env, ...e2e.platform.env.wallet, GRPC_PORT: String(port), METRICS_PORT: "0" },
        stdio: "ignore",
      }),
    );
  }
  for (const port of ports) clients.push(new RpcClient(Rpc.wallet, `127.0.0.1:${port}`, 60_000));
  // every process answers before the race starts
  await waitFor(
    async () => {
      const answers = await Promise.all(
        clients.map((c) =>
          c.call("ListWallets", { organization_id: organizationId, page: { page: 1, per_page: 1 } }).then(
            () => true,
            () => false,
          ),
        ),
      );
      return answers.every(Boolean);
    },
    { what: "three wallet processes", timeoutMs: 30_000 },
  );
}, 120_000);

afterAll(async () => {
  for (const c of clients) c.close();
  for (const p of extra) p.kill("SIGKILL");
  await e2e?.stop();
});

describe("one wallet, three wallet processes", () => {
  it("decides 1,000 concurrent movements once each: balance = what settled, never negative", async () => {
    const wallet = (
      await call("POST", "/wallets", {
        wallet: { external_customer_id: "hot", currency: "EUR", rate_amount: "1", granted_credits: "100" },
      })
    ).body.wallet;
    const outcomes = await Promise.all(
      Array.from({ length: MOVES }, async (_, i) => {
        const client = clients[i % clients.length]!;
        if (i % 2 === 0) {
          // an invoice taking 1.50 €: settles, or fails when the wallet has less
          const res = await client.call("ConsumeCredits", {
            organization_id: organizationId,
            wallet_id: wallet.svc_id,
            invoice_id: invoiceId(i),
            amount_cents: 150,
          });
          return {
            kind: "consume",
            status: res.wallet_transaction!.status,
            cents: -Number(res.wallet_transaction!.amount_cents),
          };
        }
        const res = await client.call("CreateWalletTransactions", {
          organization_id: organizationId,
          wallet_transaction: { wallet_id: wallet.svc_id, granted_credits: "1", metadata: [] },
        });
        const tx = res.wallet_transactions[0]!;
        return { kind: "grant", status: tx.status, cents: Number(tx.amount_cents) };
      }),
    );
    const settled = outcomes.filter((o) => o.status === "settled");
    const failed = outcomes.filter((o) => o.status === "failed");
    expect(settled.length + failed.length).toBe(MOVES);
    expect(failed.every((o) => o.kind === "consume")).toBe(true);
    // the consumptions outran the grants: some found the wallet short
    expect(failed.length).toBeGreaterThan(0);
    const after = (await call("GET", `/wallets/${wallet.svc_id}`)).body.wallet;
    expect(after.balance_cents).toBe(10_000 + settled.reduce((sum, o) => sum + o.cents, 0));
    expect(after.balance_cents).toBeGreaterThanOrEqual(0);
    // the ledger: every settled transaction listed once with its own sequence (1 is the creation's grant)
    const listed: Array<{ svc_id: string }> = [];
    for (let page = 1; ; page++) {
      const res = (
        await call("GET", `/wallets/${wallet.svc_id}/wallet_transactions?status=settled&per_page=500&page=${page}`)
      ).body;
      listed.push(...res.wallet_transactions);
      if (!res.meta.next_page) break;
    }
    expect(listed).toHaveLength(settled.length + 1);
    expect(new Set(listed.map((t) => t.svc_id)).size).toBe(listed.length);
    console.log(
      `wallet concurrency test: ${settled.length} settled, ${failed.length} refused, balance ${after.balance_cents}`,
    );
  }, 180_000);
});
