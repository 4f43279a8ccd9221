// The servers a benchmark starts for itself: memory-backed MongoDB test server (on H2 the figures
// would measure its disk writes) and NATS, on ports of their own, under .infra/bench. NATS starts
// with an empty JetStream store: streams left by an earlier run would be replayed to the new
// run's consumers (every durable starts from the stream's first message) and skew its figures.
import { readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const kit = require("../libs/testkit/dist/index.js");

export function startBenchInfrastructure() {
  process.env.INFRA_MONGO_BACKEND ??= "memory";
  // 1M events' pages, buckets and dedup keys live in the memory backend's heap
  process.env.INFRA_MONGO_HEAP ??= "8g";
  process.env.INFRA_DIR ??= new URL("../.infra/bench", import.meta.url).pathname;
  process.env.INFRA_MONGO_PORT ??= "27019";
  process.env.INFRA_NATS_PORT ??= "4224";
  process.env.INFRA_NATS_HTTP_PORT ??= "8224";
  rmSync(`${process.env.INFRA_DIR}/nats/jetstream`, { recursive: true, force: true });
  return kit.startInfrastructure();
}

/** An organization's API client on a launched platform: the body of a 200, or a throw showing what came back instead. */
export function apiClient(baseUrl, apiKey) {
  return async (method, path, body) => {
    const res = await fetch(`${baseUrl}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = await res.json();
    if (res.status !== 200) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
}

/** Runs `work(0)` … `work(count - 1)`, `concurrency` at a time. */
export async function pool(count, concurrency, work) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < count; i = next++) await work(i);
    }),
  );
}

/** Resolves once the usage service's ingest cursor (database `<prefix>_usage`) has reached the ingest stream's last message of `prefix`. */
export async function storageCaughtUp(infra, prefix, pollMs = 100) {
  const { MongoClient } = require("mongodb");
  const { connect } = require("nats");
  const subject = `ingest.usage.${prefix}`;
  const nc = await connect({ servers: infra.natsUrl });
  const mongo = await MongoClient.connect(infra.mongoUrl);
  try {
    const jsm = await nc.jetstreamManager();
    const last = (await jsm.streams.getMessage("BILLING_USAGE_INGEST", { last_by_subj: subject })).seq;
    const cursors = mongo.db(`${prefix}_usage`).collection("ingest_cursors");
    while (((await cursors.findOne({ _id: subject }))?.seq ?? 0) < last)
      await new Promise((r) => setTimeout(r, pollMs));
  } finally {
    await nc.close();
    await mongo.close();
  }
}

/**
 * CPU seconds (user + system, from /proc) each of a launched platform's processes and the bench's
 * own MongoDB and NATS servers has used so far: `cpuSeconds(...)` before and after a phase gives
 * where its CPU went. Linux only; a process it cannot read counts 0.
 */
export function cpuSeconds(platform) {
  const ticks = (pid) => {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
      return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100 per second)
    } catch {
      return 0;
    }
  };
  const pidOf = (name) => {
    try {
      return Number(readFileSync(`${process.env.INFRA_DIR}/${name}.pid`, "utf8").trim());
    } catch {
      return 0;
    }
  };
  const out = { mongo: ticks(pidOf("mongo")), nats: ticks(pidOf("nats")) };
  for (const [name, child] of platform.processes) out[name] = ticks(child.pid);
  return out;
}

/** What `cpuSeconds` grew by between two readings, per process and in all (seconds, one decimal). */
export function cpuUsed(before, after) {
  const used = Object.fromEntries(
    Object.keys(after).map((k) => [k, Math.round((after[k] - (before[k] ?? 0)) * 10) / 10]),
  );
  used.total = Math.round(Object.values(used).reduce((a, b) => a + b, 0) * 10) / 10;
  return used;
}
