// The platform under load: infrastructure, the seven services, one organization and its catalog.
import { createRequire } from "node:module";
import { startBenchInfrastructure } from "../bench-infrastructure.mjs";

const require = createRequire(import.meta.url);
const kit = require("../../libs/testkit/dist/index.js");

async function http(baseUrl, apiKey, method, path, body) {
  const res = await fetch(`${baseUrl}/api/v1${path}`, {
    method,
    headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
    body: body && JSON.stringify(body),
  });
  const json = await res.json().catch(() => undefined);
  if (res.status !== 200) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** Metrics: bench_sum (sum of `value`, the batch load), single_count (the single-event load), bench_advance (pay in advance, estimates). */
async function createCatalog(baseUrl, apiKey) {
  const call = (method, path, body) => http(baseUrl, apiKey, method, path, body);
  await call("POST", "/billable_metrics", {
    billable_metric: { name: "Bench sum", code: "bench_sum", aggregation_type: "sum_agg", field_name: "value" },
  });
  await call("POST", "/billable_metrics", {
    billable_metric: { name: "Single count", code: "single_count", aggregation_type: "count_agg" },
  });
  const advance = await call("POST", "/billable_metrics", {
    billable_metric: { name: "Advance", code: "bench_advance", aggregation_type: "sum_agg", field_name: "value" },
  });
  await call("POST", "/customers", { customer: { external_id: "cus_bench", name: "Bench" } });
  await call("POST", "/plans", {
    plan: {
      name: "Bench",
      code: "bench",
      interval: "monthly",
      amount_cents: 0,
      amount_currency: "EUR",
      pay_in_advance: false,
      charges: [
        {
          billable_metric_id: advance.billable_metric.svc_id,
          charge_model: "standard",
          pay_in_advance: true,
          invoiceable: false,
          properties: { amount: "0.5" },
        },
      ],
    },
  });
  await call("POST", "/subscriptions", {
    subscription: { external_customer_id: "cus_bench", plan_code: "bench", external_id: "sub_estimate" },
  });
}

/** `extraEnv` joins every service's environment (e.g. tracing on, for tracing-overhead.mjs). */
export async function startBench(logLevel, extraEnv = {}) {
  const infra = await startBenchInfrastructure();
  const prefix = kit.uniqueName("bench_ingest");
  // BENCH_PROFILE_DIR: every service writes a V8 CPU profile there when it stops
  const hook = new URL("./cpu-profile-hook.cjs", import.meta.url).pathname;
  const profile = process.env.BENCH_PROFILE_DIR
    ? { NODE_OPTIONS: `--require ${hook}`, BENCH_PROFILE_DIR: process.env.BENCH_PROFILE_DIR }
    : {};
  // BENCH_NODE_OPTIONS: V8 flags for the services (e.g. a larger young generation)
  const nodeOptions = [process.env.BENCH_NODE_OPTIONS, profile.NODE_OPTIONS].filter(Boolean).join(" ");
  // BENCH_SVC_<NAME>=value: the services' setting NAME (e.g. BENCH_SVC_STORE_UNIT_EVENTS=2000)
  const settings = Object.fromEntries(
    Object.entries(process.env)
      .filter(([k]) => k.startsWith("BENCH_SVC_"))
      .map(([k, v]) => [k.slice(10), v]),
  );
  const env = {
    LOG_LEVEL: logLevel,
    RATE_LIMIT_PER_S: "0",
    ...extraEnv,
    ...settings,
    ...profile,
    ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}),
  };
  const platform = await kit
    .launchPlatform({ mongoUrl: infra.mongoUrl, natsUrl: infra.natsUrl, dbPrefix: prefix, randomPorts: true, env })
    .catch(async (err) => {
      await infra.stop(); // the servers this run started must not outlive it
      throw err;
    });
  try {
    const org = kit.createOrganization({ name: "Bench", mongoUrl: infra.mongoUrl, dbName: `${prefix}_customer` });
    await createCatalog(platform.baseUrl, org.api_key);
    return {
      infra,
      prefix,
      platform,
      org,
      stop: async () => {
        await platform.stop();
        await kit.dropDatabases(
          infra.mongoUrl,
          kit.BACKEND_SERVICES.map((s) => `${prefix}_${s}`),
        );
        await infra.stop();
      },
    };
  } catch (err) {
    await platform.stop();
    await infra.stop();
    throw err;
  }
}

export const waitFor = kit.waitFor;
