// Progressive billing benchmark: npm run bench:progressive. Starts its own memory-backed NATS and
// MongoDB test server and the seven services; BENCH_PROGRESSIVE_SUBSCRIPTIONS customers each
// subscribe to a metered plan (0.01 a unit) with a recurring usage threshold of
// BENCH_PROGRESSIVE_THRESHOLD_CENTS; events (one unit each, the subscriptions in turn) are ingested
// through HTTP in batches of 100 at BENCH_PROGRESSIVE_RATE events/s for BENCH_PROGRESSIVE_SECONDS.
// Measures whether the invoicing service's threshold checks keep up with ingestion: how long its
// usage consumer takes, after the last batch is acknowledged, to have handled every envelope
// (`drain_ms`, its consumer's pending count polled every 50 ms), split into the time until the
// usage service announced the last batch stored and the checks' time after that.
// Then checks the result: every subscription's usage not yet billed progressively is below one
// threshold step (no crossing was missed) and no crossing was billed twice (the progressive
// invoices of a subscription carry strictly increasing fees).
// Prints one JSON object as its last line.
import { createRequire } from "node:module";
import os from "node:os";
import { apiClient, startBenchInfrastructure } from "../bench-infrastructure.mjs";

const require = createRequire(import.meta.url);
const kit = require("../../libs/testkit/dist/index.js");
const SUBS = Number(process.env.BENCH_PROGRESSIVE_SUBSCRIPTIONS ?? 100);
const THRESHOLD = Number(process.env.BENCH_PROGRESSIVE_THRESHOLD_CENTS ?? 100);
const RATE = Number(process.env.BENCH_PROGRESSIVE_RATE ?? 5_000);
const SECONDS = Number(process.env.BENCH_PROGRESSIVE_SECONDS ?? 10);
const TARGETS = { drain_ms: 5_000 };

console.log(
  `load before: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")} (${os.cpus().length} cores)`,
);
const infra = await startBenchInfrastructure();
const prefix = kit.uniqueName("bench_progressive");
let platform;
try {
  platform = await kit.launchPlatform({
    mongoUrl: infra.mongoUrl,
    natsUrl: infra.natsUrl,
    dbPrefix: prefix,
    randomPorts: true,
    env: { LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "warn", RATE_LIMIT_PER_S: "0" },
  });
  const org = kit.createOrganization({
    name: "Bench progressive",
    mongoUrl: infra.mongoUrl,
    dbName: `${prefix}_customer`,
  });
  const call = apiClient(platform.baseUrl, org.api_key);
  if (100 % SUBS !== 0 && SUBS % 100 !== 0)
    throw new Error("BENCH_PROGRESSIVE_SUBSCRIPTIONS must divide or be a multiple of 100");
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
      usage_thresholds: [{ amount_cents: THRESHOLD, recurring: true }],
    },
  });
  await pool(SUBS, 8, async (i) => {
    await call("POST", "/customers", { customer: { external_id: `p${i}`, currency: "EUR" } });
    await call("POST", "/subscriptions", {
      subscription: {
        external_customer_id: `p${i}`,
        plan_code: "metered",
        external_id: `ps${i}`,
        billing_time: "calendar",
      },
    });
  });

  const { connect } = require("nats");
  const nc = await connect({ servers: infra.natsUrl });
  const jsm = await nc.jetstreamManager();
  const durable = `${prefix}_invoicing_usage`; // launchPlatform gives each platform its own DURABLE_PREFIX
  const pending = async () => {
    const info = await jsm.consumers.info("BILLING_USAGE", durable);
    return info.num_pending + info.num_ack_pending;
  };

  // when the usage service announced each batch stored (billing.usage.event.ingested): the part of
  // the drain time spent before the last envelope even existed is the usage service's, not the checks'
  let lastIngestedAt = 0;
  let announced = 0;
  const ingested = nc.subscribe("billing.usage.event.ingested");
  (async () => {
    for await (const m of ingested) {
      lastIngestedAt = performance.now();
      announced += m.string().split('"transaction_id":"pb_').length - 1;
    }
  })();

  const perBatch = 100;
  const batches = Math.round((RATE * SECONDS) / perBatch);
  const statuses = {};
  const inFlight = new Set();
  const started = performance.now();
  const now = () => Math.floor(Date.now() / 1000);
  let sent = 0;
  for (let b = 0; b < batches; b++) {
    const due = started + (b * perBatch * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    while (inFlight.size >= 64) await Promise.race(inFlight);
    const body = JSON.stringify({
      events: Array.from({ length: perBatch }, (_, k) => ({
        transaction_id: `pb_${b}_${k}`,
        external_subscription_id: `ps${(b * perBatch + k) % SUBS}`,
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
        if (res.status === 200) sent += perBatch;
      })
      .finally(() => inFlight.delete(request));
    inFlight.add(request);
  }
  await Promise.all(inFlight);
  const lastAck = performance.now();
  const sentSeconds = (lastAck - started) / 1000;
  // every event announced stored first (the usage service stores in the background), then the checks
  const deadline = performance.now() + 120_000;
  while (announced < sent && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  let drained = null;
  while (performance.now() < deadline) {
    if ((await pending()) === 0) {
      drained = performance.now() - lastAck;
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  ingested.unsubscribe();
  await nc.close();

  // the result: progressive invoices per subscription, straight from the invoicing database
  const { MongoClient } = require("mongodb");
  const mongo = await MongoClient.connect(infra.mongoUrl);
  const invoices = await mongo
    .db(`${prefix}_invoicing`)
    .collection("invoices")
    .find(
      { organization_id: org.organization_id, invoice_type: "progressive_billing" },
      { projection: { lines: 1, "amounts.fees_amount_cents": 1, status: 1, billed_at: 1, created_at: 1 } },
    )
    .toArray();
  await mongo.close();
  const bySub = new Map();
  for (const i of invoices) {
    const ext = i.lines[0].external_subscription_id;
    bySub.set(ext, [...(bySub.get(ext) ?? []), i]);
  }
  const perSub = sent / SUBS; // cents (0.01 a unit, one unit an event)
  let missed = 0;
  let doubled = 0;
  for (let i = 0; i < SUBS; i++) {
    const list = (bySub.get(`ps${i}`) ?? []).map((x) => x.amounts.fees_amount_cents).sort((a, b) => a - b);
    if (new Set(list).size !== list.length) doubled++;
    const billed = list.at(-1) ?? 0;
    if (perSub - billed >= THRESHOLD) missed++;
  }
  const result = {
    subscriptions: SUBS,
    threshold_cents: THRESHOLD,
    target_eps: RATE,
    events: sent,
    eps: Math.round(sent / sentSeconds),
    statuses,
    progressive_invoices: invoices.length,
    finalized: invoices.filter((i) => i.status === "finalized").length,
    drain_ms: drained === null ? null : Math.round(drained),
    last_envelope_after_last_ack_ms: Math.round(Math.max(0, lastIngestedAt - lastAck)),
    checks_after_last_envelope_ms:
      drained === null ? null : Math.round(Math.max(0, lastAck + drained - lastIngestedAt)),
    missed_crossings: missed,
    doubled_crossings: doubled,
    load_avg: os.loadavg().map((l) => Math.round(l * 100) / 100),
  };
  result.targets_met = {
    drain_ms: drained !== null && drained < TARGETS.drain_ms,
    exact: missed === 0 && doubled === 0,
  };
  console.log(JSON.stringify(result));
  if (missed || doubled) process.exitCode = 1;
} finally {
  await platform?.stop();
  await kit
    .dropDatabases(
      infra.mongoUrl,
      kit.BACKEND_SERVICES.map((s) => `${prefix}_${s}`),
    )
    .catch(() => undefined);
  await infra.stop();
}

async function pool(count, concurrency, work) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await work(next++);
    }),
  );
}
