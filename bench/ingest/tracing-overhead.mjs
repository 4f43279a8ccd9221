// What tracing costs ingestion: BENCH_TRACING=1 npm run bench:ingest. The same load (batches, then
// single events) on a platform with tracing off and on — on: every service exports its spans by
// OTLP (http/protobuf, the default) to a collector in this process, with the platform's sampling
// (TRACE_INGEST_RATIO, 0.01, unless BENCH_SVC_TRACE_INGEST_RATIO says otherwise) — in pairs whose
// order alternates (off/on, on/off, …) so that a drift of the shared machine's load does not favour
// one side. Each run has fresh servers. Prints one line per run, then each side's median and the
// difference, then one JSON object as the last line. Bounds: BENCH_TRACING_PAIRS (2),
// BENCH_BATCH_SECONDS (10), BENCH_SINGLE_SECONDS (10), and the other BENCH_* of run.mjs.
import { existsSync, renameSync } from "node:fs";
import http from "node:http";
import { join } from "node:path";
import os from "node:os";
import { sampleCpu } from "./cpu-sample.mjs";
import { runChild, secondsUntilAllStored, secondsUntilStored, usageClient } from "./measures.mjs";
import { startBench } from "./setup.mjs";

const env = (name, fallback) => Number(process.env[name] ?? fallback);
const B = {
  pairs: env("BENCH_TRACING_PAIRS", 2),
  batchEvents: env("BENCH_BATCH_EVENTS", 1_000_000),
  batchSeconds: env("BENCH_BATCH_SECONDS", 10),
  batchClients: env("BENCH_BATCH_CLIENTS", 10),
  singleEvents: env("BENCH_SINGLE_EVENTS", 200_000),
  singleSeconds: env("BENCH_SINGLE_SECONDS", 10),
  singleClients: env("BENCH_SINGLE_CLIENTS", 50),
};
const logLevel = process.env.BENCH_LOG_LEVEL ?? "warn";
// a short run stores far fewer than run.mjs's 1M events: a smaller heap for the memory backend
process.env.INFRA_MONGO_HEAP ??= "3g";

/** An OTLP collector that takes every export (any encoding) and counts what it got. */
async function startCollector() {
  const got = { requests: 0, bytes: 0 };
  const server = http.createServer((req, res) => {
    req.on("data", (c) => (got.bytes += c.length));
    req.on("end", () => {
      got.requests++;
      res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    endpoint: `http://127.0.0.1:${server.address().port}`,
    got,
    stop: () =>
      new Promise((resolve) => {
        server.close(resolve);
        server.closeAllConnections();
      }),
  };
}

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
const pct = (on, off) => (off ? Math.round(((on - off) / off) * 1000) / 10 : null);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function run(tracing, collector, index) {
  const before = { ...collector.got };
  const otel = tracing ? { OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint, OTEL_BSP_SCHEDULE_DELAY: "1000" } : {};
  const bench = await startBench(logLevel, otel);
  const usage = usageClient(bench.platform);
  try {
    const org = bench.org.organization_id;
    const http = { baseUrl: bench.platform.baseUrl, apiKey: bench.org.api_key };
    const pids = {
      gateway: bench.platform.processes.get("gateway").pid,
      usage: bench.platform.processes.get("usage").pid,
    };
    const id = `${tracing ? "t" : "n"}${index}`;
    const loadAtStart = load();

    // BENCH_PROFILE_DIR: the gateway's and the usage service's CPU profiles of both loads
    const profile = () =>
      process.env.BENCH_PROFILE_DIR && Object.values(pids).forEach((pid) => process.kill(pid, "SIGUSR2"));
    profile();
    let cpu = sampleCpu(pids);
    const batch = await runChild("./load-http.mjs", {
      ...http,
      mode: "batch",
      clients: B.batchClients,
      maxEvents: B.batchEvents,
      maxSeconds: B.batchSeconds,
      prefix: `b${id}`,
      sub: "sub_bench",
      code: "bench_sum",
      offset: 0,
      spread: B.batchEvents,
    });
    await secondsUntilStored(usage, org, "sub_bench", "bench_sum", batch.acknowledged);
    const batchCpu = cpu();

    cpu = sampleCpu(pids);
    const single = await runChild("./load-http.mjs", {
      ...http,
      mode: "single",
      clients: B.singleClients,
      maxEvents: B.singleEvents,
      maxSeconds: B.singleSeconds,
      prefix: `x${id}`,
      sub: "sub_single",
      code: "single_count",
      spread: B.singleEvents,
    });
    await secondsUntilAllStored(
      usage,
      org,
      Array.from({ length: 100 }, (_, i) => `sub_single_${i}`),
      "single_count",
      single.acknowledged,
    );
    const singleCpu = cpu();
    if (process.env.BENCH_PROFILE_DIR) {
      profile();
      await new Promise((r) => setTimeout(r, 1000));
      for (const service of Object.keys(pids)) {
        const from = join(process.env.BENCH_PROFILE_DIR, `${service}-1.cpuprofile`);
        if (existsSync(from))
          renameSync(
            from,
            join(process.env.BENCH_PROFILE_DIR, `run${index + 1}-${tracing ? "on" : "off"}-${service}.cpuprofile`),
          );
      }
    }

    // CPU-ms of the gateway and the usage service per 1000 events, storage included
    const perK = (c, events) => Math.round(((c.gateway + c.usage) * 1e7) / Math.max(events, 1)) / 10;
    const result = {
      tracing: tracing ? "on" : "off",
      batch_eps: batch.eps,
      batch_p99_ms: batch.p99_ms,
      batch_cpu_ms_per_1k: perK(batchCpu, batch.acknowledged),
      single_eps: single.eps,
      single_p99_ms: single.p99_ms,
      single_cpu_ms_per_1k: perK(singleCpu, single.acknowledged),
      exports: collector.got.requests - before.requests,
      export_kb: Math.round((collector.got.bytes - before.bytes) / 1024),
      load: loadAtStart,
    };
    console.log(
      `run ${index + 1} tracing ${result.tracing.padEnd(3)}  batch ${String(batch.eps).padStart(6)} ev/s p99 ${batch.p99_ms} ms ${result.batch_cpu_ms_per_1k} cpu-ms/1k ev` +
        `  single ${String(single.eps).padStart(5)} ev/s p99 ${single.p99_ms} ms ${result.single_cpu_ms_per_1k} cpu-ms/1k ev` +
        `  (${result.exports} OTLP exports, ${result.export_kb} KiB; load ${loadAtStart}; statuses ${JSON.stringify(batch.statuses)} ${JSON.stringify(single.statuses)})`,
    );
    return result;
  } finally {
    usage.close();
    await bench.stop();
  }
}

console.log(
  `tracing overhead: ${B.pairs} pairs, batch ${B.batchSeconds}s × ${B.batchClients} clients, single ${B.singleSeconds}s × ${B.singleClients} clients; load before: ${load()} (${os.cpus().length} cores)`,
);
const collector = await startCollector();
const runs = [];
try {
  for (let p = 0; p < B.pairs; p++) {
    const order = p % 2 === 0 ? [false, true] : [true, false];
    for (const tracing of order) runs.push(await run(tracing, collector, runs.length));
  }
} finally {
  await collector.stop();
}

const side = (on) => runs.filter((r) => (r.tracing === "on") === on);
const summary = {};
for (const key of [
  "batch_eps",
  "single_eps",
  "batch_cpu_ms_per_1k",
  "single_cpu_ms_per_1k",
  "batch_p99_ms",
  "single_p99_ms",
]) {
  const off = Math.round(median(side(false).map((r) => r[key])) * 100) / 100;
  const on = Math.round(median(side(true).map((r) => r[key])) * 100) / 100;
  // each pair's own difference, to show the spread
  const pairs = [];
  for (let p = 0; p < B.pairs; p++) {
    const [a, b] = runs.slice(2 * p, 2 * p + 2);
    const [offRun, onRun] = a.tracing === "off" ? [a, b] : [b, a];
    pairs.push(pct(onRun[key], offRun[key]));
  }
  summary[key] = { off, on, diff_pct: pct(on, off), pairs_diff_pct: pairs };
  console.log(
    `${key.padEnd(22)} off ${String(off).padStart(8)}  on ${String(on).padStart(8)}  ${pct(on, off) >= 0 ? "+" : ""}${pct(on, off)} %  (pairs: ${pairs.map((d) => `${d >= 0 ? "+" : ""}${d} %`).join(", ")})`,
  );
}
console.log(
  JSON.stringify({ tracing_overhead: summary, runs, load_avg: os.loadavg().map((l) => Math.round(l * 100) / 100) }),
);
