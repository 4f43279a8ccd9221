// The HTTP loader, run as its own process: `node load-http.mjs '<json options>'`.
// Modes: batch (batches of 100 events), single (one event per POST), estimate (open loop at a rate).
// Each request is retried until acknowledged (200, or 422 value_already_exist for an earlier try
// that was durable); bounded by events and seconds. Prints one JSON line of results.
import http from "node:http";
import { eventJson, timestampFor } from "./events.mjs";

const o = JSON.parse(process.argv[2]);
const url = new URL(o.baseUrl);
const agent = new http.Agent({ keepAlive: true, maxSockets: o.clients ?? 64 });
const headers = { "content-type": "application/json", authorization: `Bearer ${o.apiKey}` };

function post(path, body) {
  return new Promise((resolve) => {
    const started = performance.now();
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: "POST",
        agent,
        headers: { ...headers, "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        // a 200's body is not read (the loader's CPU counts): only refusals are looked at
        const chunks = [];
        const keep = res.statusCode !== 200;
        res.on("data", (c) => keep && chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode,
            ms: performance.now() - started,
            text: keep ? Buffer.concat(chunks).toString() : "",
          }),
        );
      },
    );
    req.on("error", () => resolve({ status: 0, ms: performance.now() - started, text: "" }));
    req.end(body);
  });
}

const latencies = [];
const statuses = {};
let acknowledged = 0;
const alreadyThere = (r) => r.status === 422 && r.text.includes("value_already_exist") && !r.text.includes("value_is");

async function sendUntilAcknowledged(path, body, events, deadline) {
  while (performance.now() < deadline + 10_000) {
    const r = await post(path, body);
    statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    if (r.status === 200) latencies.push(r.ms);
    if (r.status === 200 || alreadyThere(r)) return void (acknowledged += events);
    if (r.status === 422 || r.status === 400) throw new Error(`refused: ${r.text}`);
    await new Promise((res) => setTimeout(res, r.status === 429 ? 5 : 50));
  }
}

const percentile = (sorted, p) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : null;

async function closedLoop(makeRequest, perRequest) {
  const started = performance.now();
  const deadline = started + o.maxSeconds * 1000;
  let next = 0;
  await Promise.all(
    Array.from({ length: o.clients }, async () => {
      while (next < o.maxEvents && performance.now() < deadline) {
        const n = next;
        next += perRequest;
        const { path, body } = makeRequest(n);
        await sendUntilAcknowledged(path, body, perRequest, deadline);
      }
    }),
  );
  return (performance.now() - started) / 1000;
}

/** Open loop at `rate` req/s for `seconds`; `measured` false: a warm-up (JIT, first reads), not counted. */
async function openLoop(seconds, measured = true) {
  const started = performance.now();
  const pending = [];
  const body = JSON.stringify({ event: { code: o.code, external_subscription_id: o.sub, properties: { value: 3 } } });
  for (let i = 0; i < o.rate * seconds; i++) {
    const due = started + (i * 1000) / o.rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    pending.push(
      post("/api/v1/events/estimate_fees", body).then((r) => {
        if (!measured) return;
        statuses[r.status] = (statuses[r.status] ?? 0) + 1;
        if (r.status === 200) (latencies.push(r.ms), acknowledged++);
      }),
    );
  }
  await Promise.all(pending);
  return (performance.now() - started) / 1000;
}

let seconds;
if (o.mode === "batch") {
  seconds = await closedLoop((n) => {
    const events = [];
    for (let k = 0; k < 100; k++)
      events.push(eventJson(`${o.prefix}-${n + k}`, o.sub, o.code, timestampFor(o.offset + n + k, o.spread), n + k));
    return { path: "/api/v1/events/batch", body: `{"events":[${events.join(",")}]}` };
  }, 100);
} else if (o.mode === "single") {
  seconds = await closedLoop(
    (n) => ({
      path: "/api/v1/events",
      body: `{"event":${eventJson(`${o.prefix}-${n}`, `${o.sub}_${n % 100}`, o.code, timestampFor(n, o.spread), n)}}`,
    }),
    1,
  );
} else {
  await openLoop(o.warmupSeconds ?? 0, false);
  seconds = await openLoop(o.maxSeconds);
}

latencies.sort((a, b) => a - b);
const round = (x) => (x === null ? null : Math.round(x * 100) / 100);
console.log(
  JSON.stringify({
    mode: o.mode,
    acknowledged,
    seconds: round(seconds),
    eps: Math.round(acknowledged / seconds),
    p50_ms: round(percentile(latencies, 50)),
    p90_ms: round(percentile(latencies, 90)),
    p99_ms: round(percentile(latencies, 99)),
    max_ms: round(latencies.at(-1) ?? null),
    statuses,
    cpu_s: round((process.cpuUsage().user + process.cpuUsage().system) / 1e6),
  }),
);
agent.destroy();
