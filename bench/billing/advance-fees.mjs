// Pay-in-advance fees benchmark: npm run bench:billing:advance. Starts its own memory-backed NATS and
// MongoDB test server and the seven services, creates BENCH_ADVANCE_SUBSCRIPTIONS (200) subscriptions
// to a plan with one pay-in-advance charge (sum of `tokens`, standard, not invoiceable: each fee waits
// for its periodic invoice), sends a burst of BENCH_ADVANCE_EVENTS (100,000) events through
// POST /events/batch (100 per request, 8 in flight), and waits for one fee per event. Prints the fees
// per second (from the burst's first acknowledgement to the last fee stored, and from the first fee to
// the last) and the p50/p99 of (fee created − its event acknowledged). One JSON object as its last line.
// BENCH_ADVANCE_RATE=n sends the events as a steady stream of n events per second instead of a burst
// (the lag then tells whether fees keep up with ingestion at that rate).
// Settings for the services: BENCH_SVC_<NAME>=value (e.g. BENCH_SVC_ADVANCE_FEE_BATCH=1: one envelope at a time).
// Before the result, a `profile:` line: the time per phase of the pay-in-advance batches (the invoicing
// and usage services' histograms) and the envelopes per batch; then a `cpu seconds` line: the CPU each process (the
// services, MongoDB, NATS) used from the burst's start until the last fee was counted (the poll adds up to 0.5 s).
import os from "node:os";
import { createRequire } from "node:module";
import { cpuSeconds, cpuUsed, startBenchInfrastructure } from "../bench-infrastructure.mjs";

const require = createRequire(import.meta.url);
const { MongoClient } = require("mongodb");
const kit = require("../../libs/testkit/dist/index.js");

const SUBS = Number(process.env.BENCH_ADVANCE_SUBSCRIPTIONS ?? 200);
const EVENTS = Number(process.env.BENCH_ADVANCE_EVENTS ?? 100_000);
// events per second to send at, steadily (0: as fast as the platform acknowledges them, the burst)
const RATE = Number(process.env.BENCH_ADVANCE_RATE ?? 0);
const TARGETS = { fees_per_s: 10_000, fee_lag_p99_ms: 5_000 };
// servers of its own, off the ports the other benchmarks and the test infrastructure use
process.env.INFRA_MONGO_PORT ??= "27129";
process.env.INFRA_NATS_PORT ??= "4329";
process.env.INFRA_NATS_HTTP_PORT ??= "8329";
process.env.INFRA_MONGO_HEAP ??= "3g";

const serviceEnv = Object.fromEntries(
  Object.entries(process.env)
    .filter(([k]) => k.startsWith("BENCH_SVC_"))
    .map(([k, v]) => [k.slice("BENCH_SVC_".length), v]),
);
// BENCH_PROFILE_DIR: every service writes a V8 CPU profile of the burst (its start to the last fee) there, <service>-1.cpuprofile
const profileDir = process.env.BENCH_PROFILE_DIR;
if (profileDir)
  Object.assign(serviceEnv, {
    NODE_OPTIONS: `--require ${new URL("../ingest/cpu-profile-hook.cjs", import.meta.url).pathname}`,
    BENCH_PROFILE_DIR: profileDir,
  });
const toggleProfiles = (platform) => {
  if (profileDir) for (const [, child] of platform.processes) process.kill(child.pid, "SIGUSR2");
};

console.log(
  `load before: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")} (${os.cpus().length} cores)`,
);
const infra = await startBenchInfrastructure();
const prefix = kit.uniqueName("bench_advance");
let platform;
const mongo = await MongoClient.connect(infra.mongoUrl);
try {
  platform = await kit.launchPlatform({
    mongoUrl: infra.mongoUrl,
    natsUrl: infra.natsUrl,
    dbPrefix: prefix,
    randomPorts: true,
    env: { LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "warn", RATE_LIMIT_PER_S: "0", ...serviceEnv },
  });
  const org = kit.createOrganization({ name: "Bench advance", mongoUrl: infra.mongoUrl, dbName: `${prefix}_customer` });
  const call = async (method, path, body) => {
    const res = await fetch(`${platform.baseUrl}/api/v1${path}`, {
      method,
      headers: { "content-type": "application/json", authorization: `Bearer ${org.api_key}` },
      body: body && JSON.stringify(body),
    });
    const json = await res.json().catch(() => undefined);
    if (res.status !== 200) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  // a request refused while the machine is busy (504, 429, 503) is sent again; creations are idempotent by
  // external id, and an event batch already stored is refused as duplicates (422): it was acknowledged
  const retried = async (method, path, body) => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await call(method, path, body);
      } catch (err) {
        const text = String(err);
        if (/value_already_exist|→ 422/.test(text) && attempt > 0) return undefined;
        if (attempt >= 8 || !/→ (5\d\d|429)/.test(text)) throw err;
        await new Promise((r) => setTimeout(r, 250 * (attempt + 1)));
      }
    }
  };
  const pool = async (count, concurrency, work) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let i = next++; i < count; i = next++) await work(i);
      }),
    );
  };

  const tokens = (
    await retried("POST", "/billable_metrics", {
      billable_metric: { name: "Tokens", code: "tokens", aggregation_type: "sum_agg", field_name: "tokens" },
    })
  ).billable_metric.svc_id;
  await retried("POST", "/plans", {
    plan: {
      name: "Advance",
      code: "advance",
      interval: "monthly",
      amount_cents: 0,
      amount_currency: "EUR",
      pay_in_advance: false,
      charges: [
        {
          billable_metric_id: tokens,
          charge_model: "standard",
          pay_in_advance: true,
          invoiceable: false,
          properties: { amount: "0.01" },
        },
      ],
    },
  });
  await pool(SUBS, 4, (i) =>
    retried("POST", "/subscriptions", {
      subscription: {
        external_customer_id: `cus_${Math.floor(i / 10)}`,
        plan_code: "advance",
        external_id: `sub_${i}`,
        billing_time: "calendar",
      },
    }),
  );
  // the usage service's copies of every subscription (its ingest refuses events of unknown ones), then invoicing's
  for (let i = 0; i < 600; i++) {
    const ok = await call("POST", "/events/estimate_fees", {
      event: { code: "tokens", external_subscription_id: `sub_${SUBS - 1}`, properties: { tokens: 1 } },
    }).then(
      () => true,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await new Promise((r) => setTimeout(r, 2_000));

  // the burst: each event's acknowledgement instant is its batch's answer
  const acknowledged = new Map();
  const cpuBefore = cpuSeconds(platform);
  toggleProfiles(platform);
  const burstStarted = Date.now();
  await pool(Math.ceil(EVENTS / 100), 8, async (b) => {
    // a steady stream instead of a burst: request b leaves at b × 100 / RATE seconds
    if (RATE > 0)
      await new Promise((r) => setTimeout(r, Math.max(0, burstStarted + (b * 100 * 1000) / RATE - Date.now())));
    const events = Array.from({ length: Math.min(100, EVENTS - b * 100) }, (_, k) => {
      const n = b * 100 + k;
      return {
        transaction_id: `adv_${n}`,
        external_subscription_id: `sub_${n % SUBS}`,
        code: "tokens",
        properties: { tokens: (n % 5) + 1 },
      };
    });
    await retried("POST", "/events/batch", { events });
    const at = Date.now();
    for (const e of events) acknowledged.set(e.transaction_id, at);
  });
  const burstS = (Date.now() - burstStarted) / 1000;
  console.log(
    `${RATE > 0 ? `steady stream at ${RATE} events/s` : "burst"}: ${EVENTS} events acknowledged in ${burstS.toFixed(1)} s (${Math.round(EVENTS / burstS)} events/s)`,
  );

  // one fee per event: polled gently
  const fees = mongo.db(`${prefix}_invoicing`).collection("advance_fees");
  let count = 0;
  for (let waited = 0; waited < 900_000; waited += 500) {
    count = await fees.estimatedDocumentCount(); // the count command: no scan of the collection (a scan each poll cost the server seconds)
    if (count >= EVENTS) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const cpu = cpuUsed(cpuBefore, cpuSeconds(platform));
  toggleProfiles(platform);
  if (profileDir) await new Promise((r) => setTimeout(r, 2_000)); // the profiles written
  const docs = await fees.find({}, { projection: { event_transaction_id: 1, created_at: 1 } }).toArray();
  const lags = [];
  let first = Infinity;
  let last = 0;
  for (const d of docs) {
    const created = new Date(d.created_at).getTime();
    first = Math.min(first, created);
    last = Math.max(last, created);
    const ack = acknowledged.get(d.event_transaction_id);
    if (ack !== undefined) lags.push(created - ack);
  }
  lags.sort((a, b) => a - b);

  // where the time went: the services' phase histograms (sum and count per phase, from /metrics)
  const phases = async (service, metric) => {
    const text = await fetch(`http://127.0.0.1:${platform.env[service].METRICS_PORT}/metrics`)
      .then((r) => r.text())
      .catch(() => "");
    const out = {};
    for (const m of text.matchAll(
      new RegExp(`^${metric}_(sum|count)\\{[^}]*phase="([^"]+)"[^}]*\\} ([0-9.e+-]+)$`, "gm"),
    )) {
      (out[m[2]] ??= {})[m[1]] = Number(m[3]);
    }
    return Object.fromEntries(
      Object.entries(out).map(([k, v]) => [
        k,
        {
          calls: v.count,
          ms_per_call: Math.round((v.sum / Math.max(1, v.count)) * 1000 * 10) / 10,
          total_s: Math.round(v.sum * 10) / 10,
        },
      ]),
    );
  };
  const batchSizes = async () => {
    const text = await fetch(`http://127.0.0.1:${platform.env.invoicing.METRICS_PORT}/metrics`)
      .then((r) => r.text())
      .catch(() => "");
    const sum = Number(
      /^invoicing_advance_fee_batch_envelopes_sum(?:\{[^}]*\})? ([0-9.e+-]+)$/m.exec(text)?.[1] ?? NaN,
    );
    const count = Number(
      /^invoicing_advance_fee_batch_envelopes_count(?:\{[^}]*\})? ([0-9.e+-]+)$/m.exec(text)?.[1] ?? NaN,
    );
    return { batches: count, envelopes_per_batch: Math.round((sum / count) * 10) / 10 };
  };
  const profile = {
    invoicing: await phases("invoicing", "invoicing_advance_fee_phase_seconds"),
    usage: await phases("usage", "usage_advance_pricing_phase_seconds"),
    ...(await batchSizes()),
  };
  console.log(`profile: ${JSON.stringify(profile)}`);
  console.log(
    `cpu seconds from the burst to the last fee (all processes, ${os.cpus().length} cores): ${JSON.stringify(cpu)}`,
  );
  const at = (q) => lags[Math.min(lags.length - 1, Math.floor(lags.length * q))];
  const result = {
    events: EVENTS,
    subscriptions: SUBS,
    ...(RATE > 0 ? { steady_events_per_s: RATE } : {}),
    fees: docs.length,
    distinct_events: new Set(docs.map((d) => d.event_transaction_id)).size,
    burst_events_per_s: Math.round(EVENTS / burstS),
    fees_per_s: Math.round(docs.length / ((last - burstStarted) / 1000)),
    fees_per_s_first_to_last: Math.round(docs.length / Math.max(0.001, (last - first) / 1000)),
    fee_lag_p50_ms: at(0.5),
    fee_lag_p99_ms: at(0.99),
    fee_lag_max_ms: lags[lags.length - 1],
    batches: profile.batches,
    envelopes_per_batch: profile.envelopes_per_batch,
    load_avg: os.loadavg().map((l) => Math.round(l * 100) / 100),
  };
  result.targets_met = {
    fees_per_s: result.fees_per_s >= TARGETS.fees_per_s,
    fee_lag_p99_ms: result.fee_lag_p99_ms <= TARGETS.fee_lag_p99_ms,
  };
  console.log(JSON.stringify(result));
} finally {
  await platform?.stop();
  await kit
    .dropDatabases(
      infra.mongoUrl,
      kit.BACKEND_SERVICES.map((s) => `${prefix}_${s}`),
    )
    .catch(() => undefined);
  await mongo.close();
  await infra.stop();
}
