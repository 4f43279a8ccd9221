// Billing benchmark: npm run bench:billing. Starts its own memory-backed NATS and MongoDB test
// server and the seven services, then for 1,000 and 10,000 subscriptions (10 per customer; a base
// fee and three usage charges: graduated, package, percentage with filters) seeds the usage of a
// month on a sandbox organization, measures current_usage at 100 req/s, moves the test clock across
// the month's boundary and times the billing run until the clock is ready again. Prints one JSON
// object as its last line. Sizes: BENCH_BILLING_SUBSCRIPTIONS (10000), BENCH_BILLING_EVENTS_PER_SUB (100).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import { apiClient, pool, startBenchInfrastructure, storageCaughtUp } from "../bench-infrastructure.mjs";

const require = createRequire(import.meta.url);
const kit = require("../../libs/testkit/dist/index.js");
const SUBS = Number(process.env.BENCH_BILLING_SUBSCRIPTIONS ?? 10_000);
const EVENTS_PER_SUB = Number(process.env.BENCH_BILLING_EVENTS_PER_SUB ?? 100);
// BENCH_PROFILE_DIR: the invoicing, usage and gateway services write V8 CPU profiles of the
// current_usage load (…-1) and of the billing run (…-2) there, as <service>-<n>.cpuprofile
const profileDir = process.env.BENCH_PROFILE_DIR;
const profiled = ["invoicing", "usage", "gateway"];
const toggleProfiles = () => profileDir && profiled.forEach((s) => platform.processes.get(s)?.kill("SIGUSR2"));
const TARGETS = { billing_run_s: 20, invoicing_rss_mb: 512, current_usage_p99_ms: 25, growth: 10 };

console.log(
  `load before: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")} (${os.cpus().length} cores)`,
);
const infra = await startBenchInfrastructure();
const prefix = kit.uniqueName("bench_billing");
let platform;
try {
  platform = await kit.launchPlatform({
    mongoUrl: infra.mongoUrl,
    natsUrl: infra.natsUrl,
    dbPrefix: prefix,
    randomPorts: true,
    env: {
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "warn",
      RATE_LIMIT_PER_S: "0",
      ...(profileDir
        ? {
            NODE_OPTIONS: `--require ${new URL("../ingest/cpu-profile-hook.cjs", import.meta.url).pathname}`,
            BENCH_PROFILE_DIR: profileDir,
          }
        : {}),
    },
  });
  const small = await run(Math.max(10, Math.round(SUBS / 10)), "1k");
  const large = await run(SUBS, "10k");
  const result = {
    subscriptions: SUBS,
    events: SUBS * EVENTS_PER_SUB,
    billing_run_s: large.billing_run_s,
    invoices: large.invoices,
    invoices_per_s: large.invoices_per_s,
    subscriptions_per_s: large.subscriptions_per_s,
    invoicing_rss_mb: large.invoicing_rss_mb,
    current_usage_p99_ms: large.current_usage_p99_ms,
    billing_run_1k_s: small.billing_run_s,
    events_stored_after_s: large.events_stored_after_s,
    growth: Math.round((large.billing_run_s / small.billing_run_s) * 100) / 100,
    load_avg: os.loadavg().map((l) => Math.round(l * 100) / 100),
  };
  result.targets_met = {
    billing_run_s: result.billing_run_s < TARGETS.billing_run_s,
    invoicing_rss_mb: result.invoicing_rss_mb < TARGETS.invoicing_rss_mb,
    current_usage_p99_ms: result.current_usage_p99_ms < TARGETS.current_usage_p99_ms,
    growth: result.growth <= TARGETS.growth,
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
  await infra.stop();
}

function peakRssMb(pid) {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Math.round(Number(match[1]) / 1024) : null;
}

async function run(subs, label) {
  const org = kit.createOrganization({
    name: `Bench ${label}`,
    mongoUrl: infra.mongoUrl,
    dbName: `${prefix}_customer`,
    frozenTime: "2024-01-01T00:00:00Z",
  });
  const call = apiClient(platform.baseUrl, org.api_key);
  const metric = (code, body) =>
    call("POST", "/billable_metrics", { billable_metric: { name: code, code, ...body } }).then(
      (r) => r.billable_metric.svc_id,
    );
  const calls = await metric("calls", { aggregation_type: "count_agg" });
  const storage = await metric("storage", { aggregation_type: "sum_agg", field_name: "gb" });
  const payments = await metric("payments", {
    aggregation_type: "sum_agg",
    field_name: "amount",
    filters: [{ key: "method", values: ["card", "bank"] }],
  });
  await call("POST", "/plans", {
    plan: {
      name: "Usage",
      code: "usage",
      interval: "monthly",
      amount_cents: 4_900,
      amount_currency: "EUR",
      pay_in_advance: false,
      charges: [
        {
          billable_metric_id: calls,
          charge_model: "graduated",
          properties: {
            graduated_ranges: [
              { from_value: 0, to_value: 20, per_unit_amount: "0.10", flat_amount: "0" },
              { from_value: 21, to_value: null, per_unit_amount: "0.05", flat_amount: "1" },
            ],
          },
        },
        {
          billable_metric_id: storage,
          charge_model: "package",
          properties: { amount: "5", package_size: 10, free_units: 5 },
        },
        {
          billable_metric_id: payments,
          charge_model: "percentage",
          properties: { rate: "1.5", fixed_amount: "0.1" },
          filters: [
            {
              values: { method: ["card"] },
              properties: { rate: "2.9", fixed_amount: "0.3" },
              invoice_display_name: "Cards",
            },
          ],
        },
      ],
    },
  });
  let started = performance.now();
  // seeding retries a refused request (a 504 while the test server is busy); a retried create is idempotent by external id
  const seed = async (method, path, body) => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await call(method, path, body);
      } catch (err) {
        if (attempt >= 5 || !/→ (5\d\d)|value_already_exist/.test(String(err))) throw err;
        if (/value_already_exist/.test(String(err))) return undefined;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  };
  await pool(subs, 8, (i) =>
    seed("POST", "/subscriptions", {
      subscription: {
        external_customer_id: `cus_${Math.floor(i / 10)}`,
        plan_code: "usage",
        external_id: `sub_${i}`,
        billing_time: "calendar",
      },
    }),
  );
  const seedSubsS = (performance.now() - started) / 1000;
  // the month's usage: EVENTS_PER_SUB per subscription, spread over January, batches of 100
  const total = subs * EVENTS_PER_SUB;
  const january = Date.parse("2024-01-01T00:00:00Z") / 1000;
  started = performance.now();
  await pool(Math.ceil(total / 100), 8, (b) =>
    call("POST", "/events/batch", {
      events: Array.from({ length: Math.min(100, total - b * 100) }, (_, k) => {
        const n = b * 100 + k;
        const kind = n % 3;
        return {
          transaction_id: `${label}_${n}`,
          external_subscription_id: `sub_${n % subs}`,
          timestamp: january + (n % 2_600_000),
          code: ["calls", "storage", "payments"][kind],
          properties:
            kind === 0
              ? {}
              : kind === 1
                ? { gb: (n % 7) + 1 }
                : { amount: String((n % 50) + 10), method: n % 2 ? "card" : "bank" },
        };
      }),
    }),
  );
  const seedEventsS = (performance.now() - started) / 1000;
  // the burst's storage: until the usage service has stored the last acknowledged event (a month's
  // events arrive over the month in real life; the seeding burst lands in seconds)
  started = performance.now();
  await storageCaughtUp(infra, prefix);
  const storeLagS = (performance.now() - started) / 1000;
  // the invoicing service's copies of every subscription arrive by events: wait for the last one
  const last = subs - 1;
  for (let i = 0; i < 600; i++) {
    const ok = await call(
      "GET",
      `/customers/cus_${Math.floor(last / 10)}/current_usage?external_subscription_id=sub_${last}`,
    ).then(
      () => true,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  // current_usage at 100 req/s for 10 s on random subscriptions (open loop)
  const latencies = [];
  let refused = 0;
  toggleProfiles();
  const inFlight = [];
  for (let i = 0; i < 1_000; i++) {
    const s = Math.floor(Math.random() * subs);
    const t = performance.now();
    inFlight.push(
      call("GET", `/customers/cus_${Math.floor(s / 10)}/current_usage?external_subscription_id=sub_${s}`).then(
        () => latencies.push(performance.now() - t),
        (err) => (refused++ === 0 ? console.log(`first refused current_usage: ${err}`) : undefined),
      ),
    );
    await new Promise((r) => setTimeout(r, 10));
  }
  await Promise.all(inFlight);
  toggleProfiles();
  latencies.sort((a, b) => a - b);
  const at = (q) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] * 100) / 100;
  const p99 = at(0.99);
  // the billing run: the boundary crossed, until every invoice is out and the clock is ready
  started = performance.now();
  toggleProfiles();
  await call("POST", "/test_clock/advance", { test_clock: { frozen_time: "2024-02-01T00:00:00Z" } });
  // polled gently (a refused poll, e.g. a timeout while the servers are busy, is retried)
  for (;;) {
    const clock = await call("GET", "/test_clock").catch(() => null);
    if (clock?.test_clock.status === "ready") break;
    await new Promise((r) => setTimeout(r, 250));
  }
  toggleProfiles();
  const billingRunS = Math.round((performance.now() - started) / 10) / 100;
  const invoices = (await call("GET", "/invoices?per_page=1")).meta.total_count;
  const out = {
    billing_run_s: billingRunS,
    invoices,
    invoices_per_s: Math.round(invoices / billingRunS),
    subscriptions_per_s: Math.round(subs / billingRunS),
    invoicing_rss_mb: peakRssMb(platform.processes.get("invoicing").pid),
    current_usage_p99_ms: p99,
    current_usage_p50_ms: at(0.5),
    current_usage_p90_ms: at(0.9),
    current_usage_max_ms: at(1),
    current_usage_refused: refused,
    events_stored_after_s: Math.round(storeLagS * 10) / 10,
  };
  console.log(
    `${label}: ${subs} subscriptions (${seedSubsS.toFixed(1)} s to create), ${total} events (${seedEventsS.toFixed(1)} s, stored ${storeLagS.toFixed(1)} s after), ${JSON.stringify(out)}`,
  );
  return out;
}
