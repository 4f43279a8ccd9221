// Ingestion benchmark: npm run bench:ingest. Starts the platform, loads it from separate processes
// on 127.0.0.1 (bounded in count and time), prints one line per measure, then one JSON object as
// the last line. Bounds: BENCH_* variables below. Set MONGO_URL/NATS_URL to use running servers.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import os from "node:os";
import { startBench } from "./setup.mjs";
import { sampleCpu } from "./cpu-sample.mjs";
import {
  aggregateOnce,
  mongoInsertManyRate,
  runChild,
  secondsUntilAllStored,
  secondsUntilStored,
  usageClient,
} from "./measures.mjs";

// BENCH_TRACING=1: the same ingestion load with tracing off and on, and the difference (tracing-overhead.mjs)
if (process.env.BENCH_TRACING === "1") {
  await import("./tracing-overhead.mjs");
  process.exit(0);
}

const env = (name, fallback) => Number(process.env[name] ?? fallback);
const B = {
  rawMessages: env("BENCH_RAW_MESSAGES", 300_000),
  rawSeconds: env("BENCH_RAW_SECONDS", 10),
  batchEvents: env("BENCH_BATCH_EVENTS", 1_000_000),
  batchSeconds: env("BENCH_BATCH_SECONDS", 30),
  batchClients: env("BENCH_BATCH_CLIENTS", 10),
  aggregateEvents: env("BENCH_AGGREGATE_EVENTS", 1_000_000),
  singleEvents: env("BENCH_SINGLE_EVENTS", 200_000),
  singleSeconds: env("BENCH_SINGLE_SECONDS", 15),
  singleClients: env("BENCH_SINGLE_CLIENTS", 50),
  estimateRate: env("BENCH_ESTIMATE_RATE", 200),
  estimateSeconds: env("BENCH_ESTIMATE_SECONDS", 10),
  estimateWarmupSeconds: env("BENCH_ESTIMATE_WARMUP_SECONDS", 2),
};
const TARGETS = {
  e2e_batch_eps: 50_000,
  batch_p99_ms: 50,
  ratio: 2.5,
  single_eps: 4_000,
  single_p99_ms: 30,
  estimate_p99_ms: 10,
  aggregate_1m_ms: 1_000,
};
const logLevel = process.env.BENCH_LOG_LEVEL ?? "warn";
const id = randomBytes(4).toString("hex");
const results = {};
const report = (name, value, note = "") => {
  results[name] = value;
  console.log(`${name.padEnd(26)} ${String(value).padStart(12)} ${note}`);
};

console.log(
  `load before: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")} (${os.cpus().length} cores), services' LOG_LEVEL=${logLevel}`,
);
const bench = await startBench(logLevel);
const usage = usageClient(bench.platform);
const org = bench.org.organization_id;
const http = { baseUrl: bench.platform.baseUrl, apiKey: bench.org.api_key };
// the servers' pid files (when this run started them), and BENCH_PIDS="name=pid,…", join the per-phase CPU report
const serverPid = (name) => {
  try {
    return Number(readFileSync(`${process.env.INFRA_DIR}/${name}.pid`, "utf8"));
  } catch {
    return undefined;
  }
};
const servers = Object.fromEntries(["nats", "mongo"].map((s) => [s, serverPid(s)]).filter(([, pid]) => pid));
const pids = {
  gateway: bench.platform.processes.get("gateway").pid,
  usage: bench.platform.processes.get("usage").pid,
  ...servers,
  ...Object.fromEntries(
    (process.env.BENCH_PIDS ?? "")
      .split(",")
      .filter(Boolean)
      .map((kv) => kv.split("=")),
  ),
};
const profiling = Boolean(process.env.BENCH_PROFILE_DIR);
const toggleProfiles = () => profiling && ["gateway", "usage"].forEach((s) => process.kill(pids[s], "SIGUSR2"));
const phase = async (name, run) => {
  const stop = sampleCpu(pids);
  toggleProfiles();
  const result = await run();
  toggleProfiles();
  console.log(`  cpu-s during ${name}: ${JSON.stringify({ loader: result.cpu_s, ...stop() })}`);
  return result;
};
try {
  const raw = await phase("raw", () =>
    runChild("./load-jetstream.mjs", {
      natsUrl: bench.infra.natsUrl,
      id,
      maxMessages: B.rawMessages,
      maxSeconds: B.rawSeconds,
    }),
  );
  report("raw_jetstream_eps", raw.eps, `(${raw.acknowledged} × 300 B, js.publish with async acks, one process)`);

  const batch = await phase("batch", () =>
    runChild("./load-http.mjs", {
      ...http,
      mode: "batch",
      clients: B.batchClients,
      maxEvents: B.batchEvents,
      maxSeconds: B.batchSeconds,
      prefix: `b${id}`,
      sub: "sub_bench",
      code: "bench_sum",
      offset: 0,
      spread: B.aggregateEvents,
    }),
  );
  report(
    "e2e_batch_eps",
    batch.eps,
    `(${batch.acknowledged} events in ${batch.seconds}s, ${B.batchClients} clients × 100; statuses ${JSON.stringify(batch.statuses)})`,
  );
  report("batch_p99_ms", batch.p99_ms, `(p50 ${batch.p50_ms})`);
  report("ratio", Math.round((batch.eps / raw.eps) * 100) / 100);
  report(
    "drain_s",
    Math.round((await secondsUntilStored(usage, org, "sub_bench", "bench_sum", batch.acknowledged)) * 100) / 100,
    "(after the batch load stopped)",
  );

  let stored = batch.acknowledged;
  if (stored < B.aggregateEvents) {
    const rest = Math.ceil((B.aggregateEvents - stored) / 100) * 100;
    console.log(`seeding ${rest} more events (not measured) for the 1M aggregate…`);
    const seed = await runChild("./load-http.mjs", {
      ...http,
      mode: "batch",
      clients: B.batchClients,
      maxEvents: rest,
      maxSeconds: 600,
      prefix: `s${id}`,
      sub: "sub_bench",
      code: "bench_sum",
      offset: stored,
      spread: B.aggregateEvents,
    });
    stored += seed.acknowledged;
    await secondsUntilStored(usage, org, "sub_bench", "bench_sum", stored);
  }
  const runs = [];
  for (let i = 0; i < 5; i++) runs.push(await aggregateOnce(usage, org, "sub_bench", "bench_sum"));
  const sorted = runs.map((r) => r.ms).sort((a, b) => a - b);
  report(
    "aggregate_1m_ms",
    Math.round(sorted[2] * 10) / 10,
    `(median of 5, first ${Math.round(runs[0].ms)} ms; ${runs[0].count} events, Σ = ${runs[0].units})`,
  );

  const single = await phase("single", () =>
    runChild("./load-http.mjs", {
      ...http,
      mode: "single",
      clients: B.singleClients,
      maxEvents: B.singleEvents,
      maxSeconds: B.singleSeconds,
      prefix: `x${id}`,
      sub: "sub_single",
      code: "single_count",
      spread: B.singleEvents,
    }),
  );
  report(
    "single_eps",
    single.eps,
    `(${single.acknowledged} events in ${single.seconds}s, ${B.singleClients} clients; statuses ${JSON.stringify(single.statuses)})`,
  );
  report("single_p99_ms", single.p99_ms, `(p50 ${single.p50_ms})`);
  const singleDrain = await secondsUntilAllStored(
    usage,
    org,
    Array.from({ length: 100 }, (_, i) => `sub_single_${i}`),
    "single_count",
    single.acknowledged,
  );
  console.log(`  single events stored ${singleDrain.toFixed(2)}s after that load stopped`);

  const estimate = await phase("estimate", () =>
    runChild("./load-http.mjs", {
      ...http,
      mode: "estimate",
      clients: 64,
      rate: B.estimateRate,
      maxSeconds: B.estimateSeconds,
      warmupSeconds: B.estimateWarmupSeconds,
      sub: "sub_estimate",
      code: "bench_advance",
    }),
  );
  const estimateWorks = (estimate.statuses["200"] ?? 0) > 0;
  report(
    "estimate_p99_ms",
    estimateWorks ? estimate.p99_ms : null,
    estimateWorks
      ? `(p50 ${estimate.p50_ms}, p90 ${estimate.p90_ms}, max ${estimate.max_ms}; ${B.estimateRate} req/s for ${B.estimateSeconds}s after ${B.estimateWarmupSeconds}s not measured; statuses ${JSON.stringify(estimate.statuses)})`
      : `(endpoint not answering 200: ${JSON.stringify(estimate.statuses)})`,
  );

  report(
    "mongo_insert_many_docs_s",
    await mongoInsertManyRate(bench.infra.mongoUrl),
    "(the MongoDB test server: _id-only insertMany × 1000)",
  );
} finally {
  usage.close();
  await bench.stop();
}
results.load_avg = os.loadavg().map((l) => Math.round(l * 100) / 100);
results.log_level = logLevel;
const met = {
  e2e_batch_eps: (v, t) => v >= t,
  batch_p99_ms: (v, t) => v <= t,
  ratio: (v, t) => v >= t,
  single_eps: (v, t) => v >= t,
  single_p99_ms: (v, t) => v <= t,
  estimate_p99_ms: (v, t) => v < t,
  aggregate_1m_ms: (v, t) => v < t,
};
results.targets_met = Object.fromEntries(
  Object.entries(TARGETS).map(([k, t]) => [k, results[k] == null ? null : met[k](results[k], t)]),
);
console.log(JSON.stringify(results));
