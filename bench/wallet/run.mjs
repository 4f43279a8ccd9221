// Wallet benchmark: npm run bench:wallet. Starts its own memory-backed NATS and MongoDB test
// server and the seven services, creates BENCH_WALLETS wallets (one per customer, 1,000 credits
// each) through HTTP, then calls the wallet service's ConsumeCredits over gRPC, as invoicing does
// when it finalizes invoices: BENCH_HOT_CONSUMPTIONS on ONE wallet, then one on each wallet, 64 at
// once. Checks that every wallet's balance equals what it gave, and prints one JSON object as its
// last line (consumptions per second and latency percentiles of each run).
import { createRequire } from "node:module";
import os from "node:os";
import { startBenchInfrastructure } from "../bench-infrastructure.mjs";

const require = createRequire(import.meta.url);
const kit = require("../../libs/testkit/dist/index.js");
const { RpcClient } = require("../../libs/grpc/dist/index.js");
const { Rpc } = require("../../libs/contracts/dist/index.js");
const WALLETS = Number(process.env.BENCH_WALLETS ?? 10_000);
const HOT = Number(process.env.BENCH_HOT_CONSUMPTIONS ?? 5_000);
const CONCURRENCY = 64;
// BENCH_PROFILE_DIR: the wallet service writes a V8 CPU profile of the two consumption runs there (wallet-1.cpuprofile)
const profileDir = process.env.BENCH_PROFILE_DIR;
const toggleProfile = () => profileDir && platform.processes.get("wallet")?.kill("SIGUSR2");
const TARGETS = { consumptions_per_s: 2_000 };

console.log(`load before: ${os.loadavg().map((l) => l.toFixed(2)).join(" ")} (${os.cpus().length} cores)`);
const infra = await startBenchInfrastructure();
const prefix = kit.uniqueName("bench_wallet");
let platform;
let wallet;
try {
  platform = await kit.launchPlatform({ mongoUrl: infra.mongoUrl, natsUrl: infra.natsUrl, dbPrefix: prefix, randomPorts: true, env: {
    LOG_LEVEL: "warn",
    ...(profileDir ? { NODE_OPTIONS: `--require ${new URL("../ingest/cpu-profile-hook.cjs", import.meta.url).pathname}`, BENCH_PROFILE_DIR: profileDir } : {}),
  } });
  const org = kit.createOrganization({ name: "Bench wallets", mongoUrl: infra.mongoUrl, dbName: `${prefix}_customer` });
  const call = async (method, path, body) => {
    const res = await fetch(`${platform.baseUrl}/api/v1${path}`, {
      method, headers: { authorization: `Bearer ${org.api_key}`, "content-type": "application/json" }, body: body ? JSON.stringify(body) : undefined,
    });
    const json = await res.json();
    if (res.status !== 200) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  let started = performance.now();
  const ids = new Array(WALLETS);
  await pool(WALLETS, 32, async (i) => {
    await call("POST", "/customers", { customer: { external_id: `c${i}`, currency: "EUR" } });
    ids[i] = (await call("POST", "/wallets", { wallet: { external_customer_id: `c${i}`, currency: "EUR", rate_amount: "1", granted_credits: "1000" } })).wallet.svc_id;
  });
  const seedS = (performance.now() - started) / 1000;
  wallet = new RpcClient(Rpc.wallet, `127.0.0.1:${platform.env.wallet.GRPC_PORT}`, 60_000);
  const consume = (walletId, invoiceId, cents) =>
    wallet.call("ConsumeCredits", { organization_id: org.organization_id, wallet_id: walletId, invoice_id: invoiceId, amount_cents: cents });

  toggleProfile();
  const hot = await timed(HOT, (i) => consume(ids[0], `hot-${i}`, 1));
  const spread = await timed(WALLETS, (i) => consume(ids[i], `spread-${i}`, 250));
  toggleProfile();

  // every movement once: the hot wallet gave HOT cents more than the others
  const hotWallet = (await call("GET", `/wallets/${ids[0]}`)).wallet;
  const sample = (await call("GET", `/wallets/${ids[WALLETS - 1]}`)).wallet;
  const exact = hotWallet.balance_cents === 100_000 - HOT - 250 && sample.balance_cents === 100_000 - 250;
  const result = {
    wallets: WALLETS, seed_s: Math.round(seedS * 10) / 10,
    hot_wallet: { consumptions: HOT, ...hot }, spread: { consumptions: WALLETS, ...spread }, balances_exact: exact,
    load_avg: os.loadavg().map((l) => Math.round(l * 100) / 100),
  };
  result.targets_met = { consumptions_per_s: spread.per_s >= TARGETS.consumptions_per_s };
  console.log(JSON.stringify(result));
  if (!exact) process.exitCode = 1;
} finally {
  wallet?.close();
  await platform?.stop();
  await kit.dropDatabases(infra.mongoUrl, kit.BACKEND_SERVICES.map((s) => `${prefix}_${s}`)).catch(() => undefined);
  await infra.stop();
}

async function pool(count, concurrency, work) {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    for (let i = next++; i < count; i = next++) await work(i);
  }));
}

/** `count` calls, CONCURRENCY at once: calls per second and latency percentiles (ms). */
async function timed(count, work) {
  const latencies = [];
  const started = performance.now();
  await pool(count, CONCURRENCY, async (i) => {
    const t = performance.now();
    await work(i);
    latencies.push(performance.now() - t);
  });
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] * 10) / 10;
  return { seconds: Math.round(seconds * 100) / 100, per_s: Math.round(count / seconds), p50_ms: at(0.5), p99_ms: at(0.99) };
}
