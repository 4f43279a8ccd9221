// Measures taken from the bench's own process: aggregates over gRPC, storage progress, raw MongoDB inserts.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const { RpcClient } = require("../../libs/grpc/dist/index.js");
const mongoose = require("mongoose");

export function usageClient(platform) {
  return new RpcClient(
    { file: "billing/usage/v1/usage.proto", name: "billing.usage.v1.UsageService" },
    `127.0.0.1:${platform.env.usage.GRPC_PORT}`,
    60_000,
  );
}

export const MAY = { from: "2026-05-01T00:00:00Z", to: "2026-06-01T00:00:00Z" };

export async function aggregateOnce(usage, org, sub, code) {
  const started = performance.now();
  const r = await usage.call("Aggregate", {
    organization_id: org,
    external_subscription_id: sub,
    code,
    grouped_by: [],
    ...MAY,
  });
  return { ms: performance.now() - started, units: r.units, count: Number(r.events_count) };
}

/** Seconds until `expected` events of the series are stored and aggregatable. */
export async function secondsUntilStored(usage, org, sub, code, expected, timeoutS = 600) {
  const started = performance.now();
  for (;;) {
    const { count } = await aggregateOnce(usage, org, sub, code);
    if (count >= expected) return (performance.now() - started) / 1000;
    if (performance.now() - started > timeoutS * 1000)
      throw new Error(`only ${count} of ${expected} stored after ${timeoutS}s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Seconds until `expected` events over several subscriptions are stored. */
export async function secondsUntilAllStored(usage, org, subs, code, expected, timeoutS = 600) {
  const started = performance.now();
  for (;;) {
    const counts = await Promise.all(subs.map((sub) => aggregateOnce(usage, org, sub, code).then((r) => r.count)));
    if (counts.reduce((a, b) => a + b, 0) >= expected) return (performance.now() - started) / 1000;
    if (performance.now() - started > timeoutS * 1000) throw new Error(`not all ${expected} stored after ${timeoutS}s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The MongoDB test server's raw rate: `_id`-only insertMany of 1000 documents, for a few seconds. */
export async function mongoInsertManyRate(mongoUrl, seconds = 4) {
  const conn = await mongoose.createConnection(mongoUrl, { dbName: `bench_raw_${process.pid}` }).asPromise();
  const c = conn.collection("raw");
  let n = 0;
  const started = performance.now();
  while (performance.now() - started < seconds * 1000) {
    await c.insertMany(
      Array.from({ length: 1000 }, (_, i) => ({ _id: `k${n + i}` })),
      { ordered: false },
    );
    n += 1000;
  }
  const rate = Math.round(n / ((performance.now() - started) / 1000));
  await conn.dropDatabase();
  await conn.close();
  return rate;
}

/** Runs a loader in its own process and returns its last stdout line as JSON. */
export function runChild(file, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(new URL(file, import.meta.url)), JSON.stringify(options)], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (c) => (out += c));
    child.on("exit", (code) => {
      const last = out.trim().split("\n").pop();
      try {
        if (code !== 0) throw new Error(`exit ${code}`);
        resolve(JSON.parse(last));
      } catch (err) {
        reject(new Error(`${file} failed (${err.message}): ${out}`));
      }
    });
  });
}
