// Wallet benchmark: npm run bench:wallet. Starts its own memory-backed NATS and MongoDB test
// server and the seven services, creates BENCH_WALLETS wallets (one per customer, 1,000 credits
// each) through HTTP, then calls the wallet service's ConsumeCredits over gRPC, as invoicing does
// when it finalizes invoices: BENCH_HOT_CONSUMPTIONS on ONE wallet, then one on each wallet, 64 at
// once. Checks that every wallet's balance equals what it gave.
// Then the ongoing balance: BENCH_ONGOING_CUSTOMERS customers with a wallet and a metered
// subscription (1 cent a unit); events are ingested through HTTP (batches of 100, one unit for
// each customer in turn) at BENCH_ONGOING_RATE events/s for BENCH_ONGOING_SECONDS, while the
// wallets are read every 50 ms: a batch's delay runs from its acknowledgement (the 200) to the
// first read where every wallet's ongoing usage counts it (and every batch sent before it: a
// conservative figure, within one read period); the part of it spent before usage announced the
// batch stored (billing.usage.event.ingested) is reported beside it.
// Prints one JSON object as its last line (rates, latency and delay percentiles).
import { createRequire } from "node:module";
import os from "node:os";
import { apiClient, pool, startBenchInfrastructure } from "../bench-infrastructure.mjs";

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
const ONGOING = {
  customers: Number(process.env.BENCH_ONGOING_CUSTOMERS ?? 100),
  rate: Number(process.env.BENCH_ONGOING_RATE ?? 10_000),
  seconds: Number(process.env.BENCH_ONGOING_SECONDS ?? 10),
};
const TARGETS = { consumptions_per_s: 2_000, ongoing_delay_p99_ms: 2_000 };

console.log(
  `load before: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")} (${os.cpus().length} cores)`,
);
const infra = await startBenchInfrastructure();
const prefix = kit.uniqueName("bench_wallet");
let platform;
let wallet;
try {
  platform = await kit.launchPlatform({
    mongoUrl: infra.mongoUrl,
    natsUrl: infra.natsUrl,
    dbPrefix: prefix,
    randomPorts: true,
    env: {
      LOG_LEVEL: "warn",
      RATE_LIMIT_PER_S: "0",
      ...(profileDir
        ? {
            NODE_OPTIONS: `--require ${new URL("../ingest/cpu-profile-hook.cjs", import.meta.url).pathname}`,
            BENCH_PROFILE_DIR: profileDir,
          }
        : {}),
    },
  });
  const org = kit.createOrganization({ name: "Bench wallets", mongoUrl: infra.mongoUrl, dbName: `${prefix}_customer` });
  const call = apiClient(platform.baseUrl, org.api_key);
  let started = performance.now();
  const ids = new Array(WALLETS);
  await pool(WALLETS, 32, async (i) => {
    await call("POST", "/customers", { customer: { external_id: `c${i}`, currency: "EUR" } });
    ids[i] = (
      await call("POST", "/wallets", {
        wallet: { external_customer_id: `c${i}`, currency: "EUR", rate_amount: "1", granted_credits: "1000" },
      })
    ).wallet.svc_id;
  });
  const seedS = (performance.now() - started) / 1000;
  wallet = new RpcClient(Rpc.wallet, `127.0.0.1:${platform.env.wallet.GRPC_PORT}`, 60_000);
  const consume = (walletId, invoiceId, cents) =>
    wallet.call("ConsumeCredits", {
      organization_id: org.organization_id,
      wallet_id: walletId,
      invoice_id: invoiceId,
      amount_cents: cents,
    });

  toggleProfile();
  const hot = await timed(HOT, (i) => consume(ids[0], `hot-${i}`, 1));
  const spread = await timed(WALLETS, (i) => consume(ids[i], `spread-${i}`, 250));
  toggleProfile();

  // every movement once: the hot wallet gave HOT cents more than the others
  const hotWallet = (await call("GET", `/wallets/${ids[0]}`)).wallet;
  const sample = (await call("GET", `/wallets/${ids[WALLETS - 1]}`)).wallet;
  const exact = hotWallet.balance_cents === 100_000 - HOT - 250 && sample.balance_cents === 100_000 - 250;
  console.log(JSON.stringify({ hot, spread, balances_exact: exact, load_avg: os.loadavg() }));
  const ongoing = ONGOING.seconds > 0 ? await ongoingDelay() : null;
  const result = {
    wallets: WALLETS,
    seed_s: Math.round(seedS * 10) / 10,
    hot_wallet: { consumptions: HOT, ...hot },
    spread: { consumptions: WALLETS, ...spread },
    balances_exact: exact,
    ongoing,
    load_avg: os.loadavg().map((l) => Math.round(l * 100) / 100),
  };
  result.targets_met = {
    consumptions_per_s: spread.per_s >= TARGETS.consumptions_per_s,
    ...(ongoing
      ? {
          ongoing_delay_p99_ms:
            ongoing.reflected === ongoing.batches && ongoing.delay_p99_ms < TARGETS.ongoing_delay_p99_ms,
        }
      : {}),
  };
  console.log(JSON.stringify(result));
  if (!exact) process.exitCode = 1;
} finally {
  wallet?.close();
  await platform?.stop();
  await kit
    .dropDatabases(
      infra.mongoUrl,
      kit.BACKEND_SERVICES.map((s) => `${prefix}_${s}`),
    )
    .catch(() => undefined);
  await infra.stop();
}

/** An organization's API client: the body of a 200, or a throw showing what came back instead. */

/** The ongoing-balance phase (see the top of this file). */
async function ongoingDelay() {
  const org = kit.createOrganization({ name: "Bench ongoing", mongoUrl: infra.mongoUrl, dbName: `${prefix}_customer` });
  const call = apiClient(platform.baseUrl, org.api_key);
  const C = ONGOING.customers;
  if (100 % C !== 0)
    throw new Error("BENCH_ONGOING_CUSTOMERS must divide 100 (each batch gives every customer the same units)");
  const metric = (
    await call("POST", "/billable_metrics", {
      billable_metric: { name: "Units", code: "units", aggregation_type: "sum_agg", field_name: "n" },
    })
  ).billable_metric.svc_id;
  await call("POST", "/plans", {
    plan: {
      name: "Metered",
      code: "metered",
      interval: "monthly",
      amount_cents: 0,
      amount_currency: "EUR",
      pay_in_advance: false,
      charges: [{ billable_metric_id: metric, charge_model: "standard", properties: { amount: "0.01" } }],
    },
  });
  await pool(C, 8, async (i) => {
    await call("POST", "/customers", { customer: { external_id: `o${i}`, currency: "EUR" } });
    await call("POST", "/wallets", {
      wallet: { external_customer_id: `o${i}`, currency: "EUR", rate_amount: "1", granted_credits: "1000000" },
    });
    await call("POST", "/subscriptions", {
      subscription: {
        external_customer_id: `o${i}`,
        plan_code: "metered",
        external_id: `os${i}`,
        billing_time: "calendar",
      },
    });
  });
  const { MongoClient } = require("mongodb");
  const mongo = await MongoClient.connect(infra.mongoUrl);
  const wallets = mongo.db(`${prefix}_wallet`).collection("wallets");
  // every wallet's ongoing usage counts a unit per batch: the fewest any wallet counts is the batches reflected everywhere
  const reads = [];
  let polling = true;
  const poller = (async () => {
    while (polling) {
      const docs = await wallets
        .find({ organization_id: org.organization_id }, { projection: { ongoing_usage_cents: 1 } })
        .toArray();
      reads.push({
        at: performance.now(),
        batches: Math.min(...docs.map((d) => ((d.ongoing_usage_cents ?? 0) * C) / 100)),
      });
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  // when usage has stored each batch: its billing.usage.event.ingested publication (what the wallet service waits for)
  const { connect } = require("nats");
  const nc = await connect({ servers: infra.natsUrl });
  const storedAt = new Map();
  const sub = nc.subscribe("billing.usage.event.ingested");
  (async () => {
    for await (const m of sub) {
      const at = performance.now();
      for (const match of m.string().matchAll(/"transaction_id":"ongoing_(\d+)_/g))
        if (!storedAt.has(Number(match[1]))) storedAt.set(Number(match[1]), at);
    }
  })();
  const perBatch = 100;
  const batches = Math.round((ONGOING.rate * ONGOING.seconds) / perBatch);
  const acked = new Array(batches);
  const statuses = {};
  const started = performance.now();
  const inFlight = new Set();
  const now = () => Math.floor(Date.now() / 1000);
  for (let b = 0; b < batches; b++) {
    // paced: batch b leaves at b / (rate / 100) seconds; at most 64 requests in flight
    const due = started + (b * perBatch * 1000) / ONGOING.rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    while (inFlight.size >= 64) await Promise.race(inFlight);
    const body = JSON.stringify({
      events: Array.from({ length: perBatch }, (_, k) => ({
        transaction_id: `ongoing_${b}_${k}`,
        external_subscription_id: `os${k % C}`,
        code: "units",
        timestamp: now(),
        properties: { n: 1 },
      })),
    });
    const request = fetch(`${platform.baseUrl}/api/v1/events/batch`, {
      method: "POST",
      headers: { authorization: `Bearer ${org.api_key}`, "content-type": "application/json" },
      body,
    })
      .then(async (res) => {
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        await res.arrayBuffer();
        if (res.status === 200) acked[b] = performance.now();
      })
      .finally(() => inFlight.delete(request));
    inFlight.add(request);
  }
  await Promise.all(inFlight);
  const sentSeconds = (performance.now() - started) / 1000;
  const deadline = performance.now() + 60_000;
  while (performance.now() < deadline && !(reads.at(-1)?.batches >= batches))
    await new Promise((r) => setTimeout(r, 100));
  polling = false;
  await poller;
  await mongo.close();
  const delays = [];
  for (let b = 0; b < batches; b++) {
    if (acked[b] === undefined) continue;
    const seen = reads.find((r) => r.batches >= b + 1 && r.at >= acked[b]) ?? null;
    if (seen) delays.push(seen.at - acked[b]);
  }
  const stored = [];
  for (let b = 0; b < batches; b++)
    if (acked[b] !== undefined && storedAt.has(b)) stored.push(Math.max(0, storedAt.get(b) - acked[b]));
  sub.unsubscribe();
  await nc.close();
  delays.sort((a, b) => a - b);
  stored.sort((a, b) => a - b);
  const pct = (list, q) =>
    list.length ? Math.round(list[Math.min(list.length - 1, Math.floor(list.length * q))]) : null;
  const at = (q) => pct(delays, q);
  return {
    customers: C,
    target_eps: ONGOING.rate,
    events: batches * perBatch,
    eps: Math.round((batches * perBatch) / sentSeconds),
    statuses,
    batches,
    reflected: delays.length,
    delay_p50_ms: at(0.5),
    delay_p99_ms: at(0.99),
    delay_max_ms: at(1),
    read_period_ms: 50,
    // of which: from the acknowledgement to usage's publication of the stored batch
    stored_p50_ms: pct(stored, 0.5),
    stored_p99_ms: pct(stored, 0.99),
  };
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
  return {
    seconds: Math.round(seconds * 100) / 100,
    per_s: Math.round(count / seconds),
    p50_ms: at(0.5),
    p99_ms: at(0.99),
  };
}
