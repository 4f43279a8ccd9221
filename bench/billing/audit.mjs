// Invoice audit benchmark: npm run bench:billing:audit. Starts its own memory-backed NATS and
// MongoDB test server and the seven services; per size (BENCH_AUDIT_EVENTS, "100000,1000000"), a
// sandbox organization with ONE subscription whose January has that many events (half on a
// graduated count charge, half on a percentage charge with a filter), bills January (test clock),
// then times GET /invoices/{id}/audit (BENCH_AUDIT_RUNS, 3; the audit re-reads and re-prices every
// raw event of the period). Prints one JSON object as its last line. Target: < 2 s at 1M events.
// Besides the wall time, the CPU time the usage and invoicing services spent on each audit
// (/proc/<pid>/stat): on a machine shared with other work, the wall time mostly measures the wait
// for a core, the CPU time what the audit costs (the MongoDB test server's too: it encodes the
// pages read). Ports: INFRA_MONGO_PORT, INFRA_NATS_PORT,
// INFRA_NATS_HTTP_PORT (defaults 27019, 4224, 8224).
import { readFileSync } from "node:fs";
import os from "node:os";
import { createRequire } from "node:module";
import { apiClient, pool, startBenchInfrastructure, storageCaughtUp } from "../bench-infrastructure.mjs";

const require = createRequire(import.meta.url);
const kit = require("../../libs/testkit/dist/index.js");
const SIZES = (process.env.BENCH_AUDIT_EVENTS ?? "100000,1000000").split(",").map(Number);
const RUNS = Number(process.env.BENCH_AUDIT_RUNS ?? 3);
const TARGET_MS = 2_000;

console.log(
  `load before: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")} (${os.cpus().length} cores)`,
);
const infra = await startBenchInfrastructure();
const prefix = kit.uniqueName("bench_audit");
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
    },
  });
  const result = {};
  for (const size of SIZES) Object.assign(result, await run(size));
  result.load_avg = os.loadavg().map((l) => Math.round(l * 100) / 100);
  console.log(JSON.stringify(result));
  if (process.env.BENCH_AUDIT_KEEP) {
    // profiling aid: keep the servers and the data until SIGINT/SIGTERM (bench/billing/audit-profile.mjs reads them)
    console.log(`kept: MONGO_URL=${infra.mongoUrl} DB_PREFIX=${prefix}; stop with kill -INT ${process.pid}`);
    await new Promise((resolve) => {
      process.once("SIGINT", resolve);
      process.once("SIGTERM", resolve);
    });
  }
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

/** User + system CPU time of a process so far, in ms (clock ticks of 10 ms). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function run(size) {
  const label = size >= 1_000_000 ? `${size / 1_000_000}m` : `${size / 1_000}k`;
  const org = kit.createOrganization({
    name: `Audit ${label}`,
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
              { from_value: 0, to_value: 1000, per_unit_amount: "0.10", flat_amount: "0" },
              { from_value: 1001, to_value: null, per_unit_amount: "0.05", flat_amount: "1" },
            ],
          },
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
  await call("POST", "/customers", { customer: { external_id: "acme", name: "Acme", currency: "EUR" } });
  await call("POST", "/subscriptions", {
    subscription: { external_customer_id: "acme", plan_code: "usage", external_id: "sub_1", billing_time: "calendar" },
  });
  const january = Date.parse("2024-01-01T00:00:00Z") / 1000;
  let started = performance.now();
  await pool(Math.ceil(size / 100), 8, (b) =>
    call("POST", "/events/batch", {
      events: Array.from({ length: Math.min(100, size - b * 100) }, (_, k) => {
        const n = b * 100 + k;
        return n % 2 === 0
          ? {
              transaction_id: `${label}_${n}`,
              external_subscription_id: "sub_1",
              code: "calls",
              timestamp: january + (n % 2_600_000),
            }
          : {
              transaction_id: `${label}_${n}`,
              external_subscription_id: "sub_1",
              code: "payments",
              timestamp: january + (n % 2_600_000),
              properties: { amount: String((n % 50) + 10), method: n % 4 === 1 ? "card" : "bank" },
            };
      }),
    }),
  );
  const ingestS = (performance.now() - started) / 1000;
  started = performance.now();
  await storageCaughtUp(infra, prefix);
  const storeS = (performance.now() - started) / 1000;
  await new Promise((r) => setTimeout(r, 2_000)); // invoicing's subscription copy
  started = performance.now();
  await call("POST", "/test_clock/advance", { test_clock: { frozen_time: "2024-02-01T00:30:00Z" } });
  for (;;) {
    const clock = await call("GET", "/test_clock").catch(() => null);
    if (clock?.test_clock.status === "ready") break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const billS = (performance.now() - started) / 1000;
  const [invoice] = (await call("GET", "/invoices?per_page=1")).invoices;
  const times = [];
  const cpu = [];
  // the usage and invoicing services, and the MongoDB test server (which encodes the pages read)
  const pids = [
    ...["usage", "invoicing"].map((s) => platform.processes.get(s).pid),
    Number(readFileSync(`${process.env.INFRA_DIR}/mongo.pid`, "utf8")),
  ];
  let audit;
  for (let i = 0; i < RUNS; i++) {
    const before = pids.map(cpuMs);
    const t = performance.now();
    audit = (await call("GET", `/invoices/${invoice.svc_id}/audit`)).invoice_audit;
    times.push(performance.now() - t);
    cpu.push(pids.map((pid, k) => cpuMs(pid) - before[k]));
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a[0] + a[1] - b[0] - b[1]);
  const read = audit.charges.reduce((n, c) => n + c.raw_events_read, 0);
  console.log(
    `${label}: ingested in ${ingestS.toFixed(1)} s, stored ${storeS.toFixed(1)} s after, billed in ${billS.toFixed(1)} s; audit ${times.map((t) => t.toFixed(0)).join(", ")} ms (CPU usage+invoicing+mongo ${cpu.map(([u, i, m]) => `${u}+${i}+${m}`).join(", ")} ms), match ${audit.match}, raw events read ${read}; uptime load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  if (!audit.match) throw new Error(`the audit does not match: ${JSON.stringify(audit.mismatches)}`);
  if (read !== size) throw new Error(`the audit read ${read} raw events, not ${size}`);
  const best = Math.round(times[0]);
  return {
    [`audit_${label}_ms`]: best,
    [`audit_${label}_median_ms`]: Math.round(times[Math.floor(times.length / 2)]),
    [`audit_${label}_usage_cpu_ms`]: cpu[0][0],
    [`audit_${label}_invoicing_cpu_ms`]: cpu[0][1],
    [`audit_${label}_mongo_cpu_ms`]: cpu[0][2],
    [`audit_${label}_target_met`]: size < 1_000_000 || best < TARGET_MS,
  };
}
