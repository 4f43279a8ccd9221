// Webhook benchmark: npm run bench:webhooks. Starts its own memory-backed NATS and MongoDB test
// server and the seven services (the payment service sends the webhooks, WEBHOOK_ALLOW_PRIVATE=1
// for a loopback receiver), and a receiver inside this process: an HTTP server on 127.0.0.1 that
// answers 200 at once and counts deliveries by X-Lago-Unique-Key (every 100th one's HMAC
// signature and webhook_type are checked).
// Set-up through HTTP: BENCH_WEBHOOK_ORGS organizations, each with BENCH_WEBHOOK_ENDPOINTS hmac
// endpoints (distinct paths of the receiver, subscribed to customer.updated only) and
// BENCH_WEBHOOK_CUSTOMERS customers. Events are customer.updated, one customer after another
// (a customer's next update comes CUSTOMERS / per-org rate seconds later, so the deliveries of
// one object seldom wait for each other), made at a steady rate by BENCH_WEBHOOK_SOURCE:
//   jetstream (default): billing.customer.customer.updated envelopes published straight into
//     the BILLING_CUSTOMER stream (the customer's view, as the customer service publishes it);
//   api: POST /api/v1/customers upserts of the existing customers (the customer service publishes).
// An event's time is when this process sees it on NATS (a core subscription to the subject, so
// as JetStream stores it); its deliveries' unique keys are derived as the payment service derives
// them (uuid of webhook|<event id>|<endpoint id>), so each delivery is matched to its event.
// Runs (BENCH_WEBHOOK_SECONDS each, after a short warm-up):
//   1. throughput: BENCH_WEBHOOK_THROUGHPUT_EPS events/s (more than the target asks for): the
//      deliveries per second from the first event to the last delivery, and within the window;
//   2. latency: BENCH_WEBHOOK_EPS events/s (unset: 60 % of what run 1 sustained, at most 500):
//      the delay from event to delivery, p50/p99;
//   2b. control (BENCH_WEBHOOK_CONTROL=0 skips it and run 4): run 3 with an extra organization
//      whose endpoint answers instead, to tell what the extra events cost from what the hanging
//      costs (before run 3: afterwards the hanging endpoint's deliveries are still being tried);
//   3. isolation: run 2 again with one more organization, whose one endpoint never answers (the
//      receiver holds its requests open; the platform runs with WEBHOOK_TIMEOUT_MS =
//      BENCH_WEBHOOK_TIMEOUT_MS, default 2000), getting BENCH_WEBHOOK_EXTRA_EPS events/s (default:
//      as much as each of the others) on top of run 2's: the other organizations' p99 against run 2's;
//   4. run 2 again, after run 3: how far the figures drift from one run to the next.
// Endpoints are on distinct origins (one port of the receiver each), as different receivers are;
// BENCH_WEBHOOK_ORIGINS=shared puts them all, the hanging one included, on one port (distinct paths).
// Every run waits until each of its deliveries has arrived (at most BENCH_WEBHOOK_DRAIN_S), and
// reports missing and duplicate ones (at least once: duplicates are allowed, but counted).
// Each run also splits the delay by the stored deliveries' times (stages: fan_out, queue, send; see
// stagesOf) and gives each process's CPU (from /proc) in % of a core and in ms per event.
// BENCH_PROFILE_DIR: V8 CPU profiles of the payment and customer services during run 1.
// Prints one JSON object as its last line.
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import os from "node:os";
import { join } from "node:path";
import { apiClient, pool, startBenchInfrastructure } from "../bench-infrastructure.mjs";

const require = createRequire(import.meta.url);
const kit = require("../../libs/testkit/dist/index.js");
const { connectBus, derivedUuid, publishEnvelope, Subjects } = require("../../libs/bus/dist/index.js");
const { domainEvent } = require("../../libs/contracts/dist/index.js");

const num = (name, fallback) => Number(process.env[name] ?? fallback);
const ORGS = num("BENCH_WEBHOOK_ORGS", 4);
const ENDPOINTS = num("BENCH_WEBHOOK_ENDPOINTS", 4);
const CUSTOMERS = num("BENCH_WEBHOOK_CUSTOMERS", 250);
const SECONDS = num("BENCH_WEBHOOK_SECONDS", 10);
const WARMUP_SECONDS = num("BENCH_WEBHOOK_WARMUP_SECONDS", 2);
const THROUGHPUT_EPS = num("BENCH_WEBHOOK_THROUGHPUT_EPS", 750);
/** the latency and isolation runs' rate; unset: 60 % of what run 1 sustained, at most 500 events/s (2,000 deliveries/s) */
const FIXED_EPS = process.env.BENCH_WEBHOOK_EPS ? Number(process.env.BENCH_WEBHOOK_EPS) : null;
const TIMEOUT_MS = num("BENCH_WEBHOOK_TIMEOUT_MS", 2000);
const DRAIN_SECONDS = num("BENCH_WEBHOOK_DRAIN_S", 90);
const SOURCE = process.env.BENCH_WEBHOOK_SOURCE ?? "jetstream";
const ORIGINS = process.env.BENCH_WEBHOOK_ORIGINS ?? "distinct";
/** runs 2b (run 3 with the extra organization's endpoint answering: what the extra events cost, apart from the hanging) and 4 (run 2 again: the drift) */
const CONTROL = process.env.BENCH_WEBHOOK_CONTROL !== "0";
if (!["distinct", "shared"].includes(ORIGINS)) throw new Error("BENCH_WEBHOOK_ORIGINS is distinct or shared");
if (!["jetstream", "api"].includes(SOURCE)) throw new Error("BENCH_WEBHOOK_SOURCE is jetstream or api");
const TARGETS = { deliveries_per_s: 2_000, latency_p99_ms: 500, isolation_p99_ratio: 1.2 };
const SUBJECT = Subjects.customer.customerUpdated;

// BENCH_PROFILE_DIR: the payment and customer services write V8 CPU profiles of the throughput run there (payment-1.cpuprofile, customer-1.cpuprofile)
const profileDir = process.env.BENCH_PROFILE_DIR;
const toggleProfiles = () =>
  profileDir && ["payment", "customer"].forEach((s) => platform.processes.get(s)?.kill("SIGUSR2"));
const { MongoClient } = require("mongodb");
const loadAvg = () => os.loadavg().map((l) => Math.round(l * 100) / 100);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
console.log(
  `load before: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")} (${os.cpus().length} cores)`,
);

// --- the receiver: /o<org>/e<endpoint> answers 200 at once, /hang/... never answers
/** unique key → first arrival (performance.now()) and how many times it came */
const arrivals = new Map();
const hanging = new Set();
const receiver = { requests: 0, hangRequests: 0, checked: 0, badSignatures: 0, wrongType: 0 };
/** organization id → HMAC key (for the sampled signature checks) */
const hmacKeys = new Map();
const receive = (req, res) => {
  const at = performance.now();
  if (req.url.startsWith("/hang")) {
    receiver.hangRequests++;
    hanging.add(res);
    res.on("close", () => hanging.delete(res));
    req.resume();
    return;
  }
  receiver.requests++;
  const key = req.headers["x-lago-unique-key"];
  const seen = arrivals.get(key);
  if (seen) seen.n++;
  else arrivals.set(key, { at, n: 1 });
  if (receiver.requests % 100 === 0) {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => checkSignature(Buffer.concat(chunks).toString("utf8"), req.headers["x-lago-signature"]));
  } else req.resume();
  res.writeHead(200, { "content-length": "0" });
  res.end();
};
/** The receiver's listening servers: one per endpoint (distinct origins), or one for all (BENCH_WEBHOOK_ORIGINS=shared). */
const servers = [];
const receiverOrigin = async () => {
  if (ORIGINS === "shared" && servers.length > 0) return `http://127.0.0.1:${servers[0].address().port}`;
  const server = http.createServer(receive);
  server.keepAliveTimeout = 60_000;
  server.requestTimeout = 0;
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  servers.push(server);
  return `http://127.0.0.1:${server.address().port}`;
};

function checkSignature(body, signature) {
  receiver.checked++;
  try {
    const payload = JSON.parse(body);
    if (payload.webhook_type !== "customer.updated" || !payload.customer?.external_id) receiver.wrongType++;
    const key = hmacKeys.get(payload.organization_id);
    if (!key || createHmac("sha256", key).update(body).digest("base64") !== signature) receiver.badSignatures++;
  } catch {
    receiver.badSignatures++;
  }
}

const infra = await startBenchInfrastructure();
const prefix = kit.uniqueName("bench_webhooks");
let platform;
let bus;
let mongo;
let exitCode = 0;
try {
  platform = await kit.launchPlatform({
    mongoUrl: infra.mongoUrl,
    natsUrl: infra.natsUrl,
    dbPrefix: prefix,
    randomPorts: true,
    env: {
      LOG_LEVEL: "warn",
      RATE_LIMIT_PER_S: "0",
      WEBHOOK_ALLOW_PRIVATE: "1",
      WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
      ...(profileDir
        ? {
            NODE_OPTIONS: `--require ${new URL("../ingest/cpu-profile-hook.cjs", import.meta.url).pathname}`,
            BENCH_PROFILE_DIR: profileDir,
          }
        : {}),
    },
  });
  mongo = await MongoClient.connect(infra.mongoUrl);
  const deliveries = mongo.db(`${prefix}_payment`).collection("webhooks");
  let started = performance.now();
  const orgs = [];
  // ORGS measured organizations, then the one whose endpoint hangs, then (CONTROL) one whose endpoint answers
  for (let o = 0; o < ORGS + 1 + (CONTROL ? 1 : 0); o++) {
    const hang = o === ORGS;
    const control = o === ORGS + 1;
    const name = hang
      ? "Bench webhooks (hanging endpoint)"
      : control
        ? "Bench webhooks (control)"
        : `Bench webhooks ${o}`;
    const org = kit.createOrganization({ name, mongoUrl: infra.mongoUrl, dbName: `${prefix}_customer` });
    const call = apiClient(platform.baseUrl, org.api_key);
    const paths = hang
      ? [`/hang/o${o}`]
      : control
        ? [`/o${o}/e0`]
        : Array.from({ length: ENDPOINTS }, (_, e) => `/o${o}/e${e}`);
    const endpoints = [];
    for (const path of paths) {
      endpoints.push(
        (
          await call("POST", "/webhook_endpoints", {
            webhook_endpoint: {
              webhook_url: `${await receiverOrigin()}${path}`,
              signature_algo: "hmac",
              event_types: ["customer.updated"],
            },
          })
        ).webhook_endpoint.svc_id,
      );
    }
    hmacKeys.set(org.organization_id, (await call("GET", "/webhooks/hmac_key")).webhook.hmac_key);
    orgs.push({
      id: org.organization_id,
      apiKey: org.api_key,
      call,
      hang,
      measured: !hang && !control,
      endpoints,
      customers: new Array(CUSTOMERS),
    });
  }
  await pool(orgs.length * CUSTOMERS, 32, async (n) => {
    const org = orgs[n % orgs.length];
    const i = Math.floor(n / orgs.length);
    org.customers[i] = (
      await org.call("POST", "/customers", {
        customer: { external_id: `c${i}`, name: `Customer ${i}`, currency: "EUR" },
      })
    ).customer;
  });
  const seedS = (performance.now() - started) / 1000;
  console.log(
    `set-up: ${ORGS} organizations × ${ENDPOINTS} endpoints, ${CUSTOMERS} customers each, + 1 with a hanging endpoint${CONTROL ? " + 1 control" : ""} (${seedS.toFixed(1)} s); receiver on ${servers.length} port(s) of 127.0.0.1 (${ORIGINS} origins); source ${SOURCE}`,
  );

  // every customer.updated as it reaches NATS: its id, organization and run (the name carries it)
  bus = await connectBus({ url: infra.natsUrl, name: "bench-webhooks" });
  const events = new Map();
  const sub = bus.nc.subscribe(SUBJECT);
  (async () => {
    for await (const m of sub) {
      const at = performance.now();
      const envelope = JSON.parse(m.string());
      if (events.has(envelope.id)) continue;
      const run = /^(\w+):/.exec(envelope.data?.customer?.name ?? "")?.[1];
      if (run) events.set(envelope.id, { id: envelope.id, at, org: envelope.organization_id, run });
    }
  })();
  const orgById = new Map(orgs.map((o) => [o.id, o]));
  /** every delivery key the runs expect (the others that arrive are counted as unexpected) */
  const expectedKeys = new Set();

  const send =
    SOURCE === "api"
      ? async (org, customer, name) => {
          await org.call("POST", "/customers", { customer: { external_id: customer.external_id, name } });
        }
      : async (org, customer, name) => {
          const envelope = domainEvent(SUBJECT, {
            organizationId: org.id,
            data: { customer: customerView(customer, name) },
            occurredAt: new Date(),
          });
          await publishEnvelope(bus.js, envelope);
        };

  /** One run: `eps` events a second for `seconds` over `runOrgs` in turn (and `extra.eps` more for `extra.org`), then until every delivery has arrived. */
  const measure = async (run, eps, seconds, runOrgs, extra = null) => {
    const cpu = cpuSampler(platform);
    const rate = eps + (extra?.eps ?? 0);
    const total = Math.round(rate * seconds);
    let sent = 0;
    let extraSent = 0;
    const maxInFlight = SOURCE === "api" ? 64 : 256;
    const inFlight = new Set();
    let failed = 0;
    let firstError;
    const t0 = performance.now();
    for (let i = 0; i < total; i++) {
      const wait = t0 + (i * 1000) / rate - performance.now();
      if (wait >= 1) await sleep(wait);
      while (inFlight.size >= maxInFlight) await Promise.race(inFlight);
      // the extra organization's events spread evenly among the others'
      const toExtra = extra !== null && Math.floor(((i + 1) * extra.eps) / rate) > Math.floor((i * extra.eps) / rate);
      const n = toExtra ? extraSent++ : sent++;
      const org = toExtra ? extra.org : runOrgs[n % runOrgs.length];
      const customer = org.customers[(toExtra ? n : Math.floor(n / runOrgs.length)) % org.customers.length];
      const p = send(org, customer, `${run}:${i}`)
        .catch((err) => {
          failed++;
          firstError ??= err;
        })
        .finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
    await Promise.all(inFlight);
    const sentAt = performance.now();
    if (firstError) console.log(`${run}: ${failed} events not sent, the first: ${firstError.message}`);
    // the events of this run seen on NATS, and the keys of their deliveries to answering endpoints
    const runEvents = () => [...events.values()].filter((e) => e.run === run);
    let expected = [];
    const keysOf = () => {
      const list = runEvents();
      if (list.length === expected.seen) return;
      expected = [];
      expected.seen = list.length;
      for (const e of list) {
        const org = orgById.get(e.org);
        if (!org || org.hang) continue;
        for (const endpoint of org.endpoints) {
          const key = derivedUuid(`webhook|${e.id}|${endpoint}`);
          expectedKeys.add(key);
          expected.push({ key, e });
        }
      }
    };
    const deadline = performance.now() + DRAIN_SECONDS * 1000;
    keysOf();
    while (
      performance.now() < deadline &&
      (expected.seen < total - failed || expected.some((x) => !arrivals.has(x.key)))
    ) {
      await sleep(100);
      keysOf();
    }
    const drainedAt = performance.now();
    const { pct: cpuPct, seconds: cpuSeconds } = cpu.stop();
    const cpuMsPerEvent = Object.fromEntries(
      Object.entries(cpuSeconds).map(([name, sec]) => [name, round((sec * 1000) / total, 2)]),
    );
    const latencies = [];
    let duplicates = 0;
    let last = 0;
    let inWindow = 0;
    let firstEvent = Infinity;
    for (const { key, e } of expected) {
      const a = arrivals.get(key);
      if (a) duplicates += a.n - 1;
      // the figures are the measured organizations' (not the control's)
      if (!orgById.get(e.org).measured) continue;
      firstEvent = Math.min(firstEvent, e.at);
      if (!a) continue;
      latencies.push(a.at - e.at);
      last = Math.max(last, a.at);
      if (a.at <= sentAt) inWindow++;
    }
    latencies.sort((a, b) => a - b);
    const pct = (q) =>
      latencies.length
        ? Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] * 10) / 10
        : null;
    const stages = await stagesOf(expected.filter((x) => orgById.get(x.e.org).measured));
    const delivered = expected.filter((x) => arrivals.has(x.key)).length;
    const spanS = (last - firstEvent) / 1000;
    return {
      target_eps: rate,
      events: total,
      events_failed: failed,
      events_seen: runEvents().length,
      send_s: round((sentAt - t0) / 1000, 2),
      eps: Math.round(total / ((sentAt - t0) / 1000)),
      deliveries_expected: expected.length,
      delivered,
      missing: expected.length - delivered,
      duplicates,
      // from the run's first event to its last delivery, and within the sending window
      deliveries_per_s: spanS > 0 ? Math.round(latencies.length / spanS) : null,
      window_deliveries_per_s: Math.round(inWindow / ((sentAt - t0) / 1000)),
      drain_s: round(Math.max(0, last - sentAt) / 1000, 2),
      p50_ms: pct(0.5),
      p90_ms: pct(0.9),
      p99_ms: pct(0.99),
      max_ms: pct(1),
      stages,
      cpu_pct: cpuPct,
      cpu_ms_per_event: cpuMsPerEvent,
      load_avg: loadAvg(),
      wall_s: round((drainedAt - t0) / 1000, 1),
    };
  };

  /**
   * Where a run's delays went, from the stored deliveries (system clock, ms): `fan_out` from the
   * event to the delivery's creation (consumed, endpoints found, object rendered), `queue` from
   * there to its (last) attempt (stored, waiting in the dispatcher), `send` from the attempt to its
   * arrival at the receiver (signed, posted); p50/p99 each.
   */
  async function stagesOf(expected) {
    const byId = new Map();
    const ids = expected.filter((x) => arrivals.has(x.key)).map((x) => x.key);
    for (let i = 0; i < ids.length; i += 2000) {
      for (const d of await deliveries
        .find({ _id: { $in: ids.slice(i, i + 2000) } }, { projection: { created_at: 1, last_retried_at: 1 } })
        .toArray())
        byId.set(d._id, d);
    }
    const wall = (t) => performance.timeOrigin + t;
    const lists = { fan_out: [], queue: [], send: [] };
    for (const { key, e } of expected) {
      const d = byId.get(key);
      const a = arrivals.get(key);
      if (!d?.created_at || !d.last_retried_at || !a) continue;
      lists.fan_out.push(d.created_at.getTime() - wall(e.at));
      lists.queue.push(d.last_retried_at.getTime() - d.created_at.getTime());
      lists.send.push(wall(a.at) - d.last_retried_at.getTime());
    }
    const out = {};
    for (const [name, list] of Object.entries(lists)) {
      list.sort((a, b) => a - b);
      const at = (q) => (list.length ? Math.round(list[Math.min(list.length - 1, Math.floor(list.length * q))]) : null);
      out[name] = [at(0.5), at(0.99)];
    }
    return out;
  }

  const normal = orgs.filter((o) => o.measured);
  const hangOrg = orgs.find((o) => o.hang);
  const controlOrg = orgs.find((o) => !o.hang && !o.measured);
  const show = (label, r) => console.log(`${label}: ${JSON.stringify(r)}`);
  if (WARMUP_SECONDS > 0) show("warm-up", await measure("warmup", FIXED_EPS ?? 250, WARMUP_SECONDS, normal));
  toggleProfiles();
  const throughput = await measure("throughput", THROUGHPUT_EPS, SECONDS, normal);
  toggleProfiles();
  show("1. throughput", throughput);
  // a rate the machine sustains: the delay measured, not a backlog growing for the whole run
  const EPS =
    FIXED_EPS ??
    Math.max(25, Math.min(500, Math.round((0.6 * (throughput.deliveries_per_s ?? 0)) / ENDPOINTS / 25) * 25));
  // the extra organization's rate in runs 2b and 3: by default each measured organization's
  const EXTRA_EPS = process.env.BENCH_WEBHOOK_EXTRA_EPS ? Number(process.env.BENCH_WEBHOOK_EXTRA_EPS) : EPS / ORGS;
  console.log(
    `runs 2 and 3: ${EPS} events/s over ${ORGS} organizations (${EPS * ENDPOINTS} deliveries/s)${FIXED_EPS ? "" : ", 60 % of run 1's sustained rate (BENCH_WEBHOOK_EPS sets it)"}; the extra organization of runs 2b and 3: ${EXTRA_EPS} events/s`,
  );
  const latency = await measure("latency", EPS, SECONDS, normal);
  show("2. latency", latency);
  // the control first: afterwards, the hanging endpoint's deliveries are still being tried (and timed out) until the end
  let control = null;
  if (controlOrg) {
    control = await measure("control", EPS, SECONDS, normal, { org: controlOrg, eps: EXTRA_EPS });
    control.p99_vs_latency_run = latency.p99_ms ? round(control.p99_ms / latency.p99_ms, 2) : null;
    show("2b. control (+ 1 organization whose endpoint answers)", control);
  }
  const hangBefore = receiver.hangRequests;
  const isolation = await measure("isolation", EPS, SECONDS, normal, { org: hangOrg, eps: EXTRA_EPS });
  isolation.hanging_requests = receiver.hangRequests - hangBefore;
  isolation.hanging_open_at_end = hanging.size;
  isolation.p99_vs_latency_run = latency.p99_ms ? round(isolation.p99_ms / latency.p99_ms, 2) : null;
  if (control?.p99_ms) isolation.p99_vs_control = round(isolation.p99_ms / control.p99_ms, 2);
  show("3. isolation (+ 1 organization whose endpoint never answers)", isolation);
  // run 2 again: how much the figures drift from one run to the next (a bigger database, the machine's other load)
  let again = null;
  if (CONTROL) {
    again = await measure("again", EPS, SECONDS, normal);
    again.p99_vs_latency_run = latency.p99_ms ? round(again.p99_ms / latency.p99_ms, 2) : null;
    show("4. latency again (run 2 after run 3; the hanging endpoint's earlier deliveries still tried)", again);
  }
  for (const res of hanging) res.socket?.destroy();

  const unexpected = [...arrivals.keys()].filter((k) => !expectedKeys.has(k)).length;
  const result = {
    source: SOURCE,
    origins: ORIGINS,
    organizations: ORGS,
    endpoints_per_org: ENDPOINTS,
    customers_per_org: CUSTOMERS,
    seconds: SECONDS,
    webhook_timeout_ms: TIMEOUT_MS,
    seed_s: round(seedS, 1),
    throughput,
    latency_rate: {
      events_per_s: EPS,
      deliveries_per_s: EPS * ENDPOINTS,
      picked: FIXED_EPS ? "BENCH_WEBHOOK_EPS" : "60% of run 1",
      extra_org_events_per_s: EXTRA_EPS,
    },
    latency,
    isolation,
    control,
    latency_again: again,
    receiver: { ...receiver, unexpected_keys: unexpected },
    payment_log: logSummary(new URL(`../../.infra/logs/${prefix}/payment.log`, import.meta.url).pathname),
    load_avg: loadAvg(),
  };
  const runs = [throughput, latency, isolation, ...(control ? [control] : []), ...(again ? [again] : [])];
  const everyDelivery = runs.every((r) => r.missing === 0);
  result.exactly_once = everyDelivery && runs.every((r) => r.duplicates === 0);
  result.targets_met = {
    deliveries_per_s: throughput.missing === 0 && throughput.deliveries_per_s >= TARGETS.deliveries_per_s,
    latency_p99_ms: latency.missing === 0 && latency.p99_ms < TARGETS.latency_p99_ms,
    isolation_p99:
      isolation.missing === 0 &&
      isolation.p99_vs_latency_run !== null &&
      isolation.p99_vs_latency_run <= TARGETS.isolation_p99_ratio,
  };
  const pass = (ok) => (ok ? "met" : "MISSED");
  console.log(
    `throughput: ${throughput.deliveries_per_s} deliveries/s from first event to last delivery (${throughput.window_deliveries_per_s}/s within the ${throughput.send_s} s of sending ${throughput.eps} events/s), target ≥ ${TARGETS.deliveries_per_s}: ${pass(result.targets_met.deliveries_per_s)}`,
  );
  console.log(
    `latency at ${EPS * ENDPOINTS} deliveries/s: p50 ${latency.p50_ms} ms, p99 ${latency.p99_ms} ms, target p99 < ${TARGETS.latency_p99_ms} ms: ${pass(result.targets_met.latency_p99_ms)}`,
  );
  console.log(
    `isolation (hanging endpoint, WEBHOOK_TIMEOUT_MS ${TIMEOUT_MS}): p99 ${isolation.p99_ms} ms = ${isolation.p99_vs_latency_run} × run 2's${control ? ` (= ${isolation.p99_vs_control} × the control's: answering endpoint, ${control.p99_ms} ms = ${control.p99_vs_latency_run} × run 2's; run 2 again: ${again.p99_ms} ms = ${again.p99_vs_latency_run} ×)` : ""}, target ≤ ${TARGETS.isolation_p99_ratio} ×: ${pass(result.targets_met.isolation_p99)}`,
  );
  console.log(
    `every delivery: ${runs.reduce((n, r) => n + r.delivered, 0)} of ${runs.reduce((n, r) => n + r.deliveries_expected, 0)} arrived, ${runs.reduce((n, r) => n + r.duplicates, 0)} duplicates, ${unexpected} unexpected; exactly once: ${result.exactly_once}`,
  );
  console.log(
    `load after: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  console.log(JSON.stringify(result));
  if (!everyDelivery || receiver.badSignatures > 0 || receiver.wrongType > 0) exitCode = 1;
} finally {
  for (const res of hanging) res.socket?.destroy();
  await bus?.close().catch(() => undefined);
  await mongo?.close().catch(() => undefined);
  await platform?.stop();
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
  await kit
    .dropDatabases(
      infra.mongoUrl,
      kit.BACKEND_SERVICES.map((s) => `${prefix}_${s}`),
    )
    .catch(() => undefined);
  await infra.stop();
}
process.exitCode = exitCode;

/** An organization's API client: the body of a 200, or a throw showing what came back instead. */

/** The customer's view as the customer service puts it in its events (libs/contracts customerView), with a new name. */
function customerView(c, name) {
  return {
    svc_id: c.svc_id,
    external_id: c.external_id,
    sequential_id: c.sequential_id,
    slug: c.slug ?? null,
    billing_entity_code: c.billing_entity_code ?? null,
    name,
    currency: c.currency ?? null,
    country: c.country ?? null,
    email: c.email ?? null,
    timezone: c.timezone ?? null,
    applicable_timezone: c.applicable_timezone ?? "UTC",
    net_payment_term: c.net_payment_term ?? null,
    finalize_zero_amount_invoice: c.finalize_zero_amount_invoice ?? null,
    taxes: [],
    billing_configuration: {
      invoice_grace_period: null,
      subscription_invoice_issuing_date_anchor: null,
      subscription_invoice_issuing_date_adjustment: null,
    },
    created_at: c.created_at,
    updated_at: new Date().toISOString(),
    deleted_at: null,
  };
}

/** CPU used by each service, the infrastructure and this process between now and stop(): seconds, and % of one core. */
function cpuSampler(platformRef) {
  const pids = new Map([...platformRef.processes].map(([name, child]) => [name, child.pid]));
  const infraDir = process.env.INFRA_DIR;
  for (const name of ["mongo", "nats"]) {
    try {
      pids.set(name, Number(readFileSync(join(infraDir, `${name}.pid`), "utf8").trim()));
    } catch {
      // started some other way (env or containers): not sampled
    }
  }
  const ticks = (pid) => {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
      return Number(fields[11]) + Number(fields[12]); // utime + stime (fields 14 and 15), in 1/100 s
    } catch {
      return null;
    }
  };
  const before = new Map([...pids].map(([name, pid]) => [name, ticks(pid)]));
  const self = process.cpuUsage();
  const t = performance.now();
  return {
    stop() {
      const seconds = (performance.now() - t) / 1000;
      const used = {};
      for (const [name, pid] of pids) {
        const now = ticks(pid);
        if (now !== null && before.get(name) !== null) used[name] = (now - before.get(name)) / 100;
      }
      const own = process.cpuUsage(self);
      used.bench = (own.user + own.system) / 1e6;
      return {
        seconds: used,
        pct: Object.fromEntries(Object.entries(used).map(([name, sec]) => [name, Math.round((sec * 100) / seconds)])),
      };
    },
  };
}

/** The payment service's warnings and errors: how many, and their distinct messages. */
function logSummary(path) {
  try {
    const counts = {};
    let warnings = 0;
    for (const line of readFileSync(path, "utf8").split("\n")) {
      if (!line.startsWith("{")) continue;
      try {
        const entry = JSON.parse(line);
        if (entry.level >= 40) {
          warnings++;
          counts[entry.msg] = (counts[entry.msg] ?? 0) + 1;
        }
      } catch {
        // not a log line
      }
    }
    return { warnings_and_errors: warnings, messages: counts };
  } catch {
    return null;
  }
}

function round(x, digits) {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
