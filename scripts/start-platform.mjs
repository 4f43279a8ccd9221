#!/usr/bin/env node
// `npm start`: the infrastructure, a development organization, and the seven services
// as separate processes. Ctrl-C stops everything this script started.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const { launchPlatform } = require(join(root, "libs/testkit/dist/index.js"));

const infra = (...args) =>
  execFileSync("bash", [join(root, "scripts/infra.sh"), ...args], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });

const status = infra("status");
const startedInfra =
  !(process.env.MONGO_URL && process.env.NATS_URL) && !/nats: running[\s\S]*mongo: running/.test(status);
const urls = Object.fromEntries(
  infra("up")
    .trim()
    .split("\n")
    .map((l) => l.split("=", 2)),
);

// The development key: $DEV_API_KEY, else one generated once and kept in .infra/.
mkdirSync(join(root, ".infra"), { recursive: true });
const keyFile = join(root, ".infra", "dev-api-key");
const apiKey =
  process.env.DEV_API_KEY ||
  (existsSync(keyFile) ? readFileSync(keyFile, "utf8").trim() : `dev_${randomBytes(24).toString("hex")}`);
if (!process.env.DEV_API_KEY) writeFileSync(keyFile, apiKey, { mode: 0o600 });
execFileSync(
  process.execPath,
  [
    join(root, "services/customer/dist/cli/create-organization.js"),
    "--name",
    "Development",
    "--api-key",
    apiKey,
    "--json",
  ],
  {
    env: { ...process.env, MONGO_URL: urls.MONGO_URL, MONGO_DB: "billing_customer" },
    stdio: ["ignore", "ignore", "inherit"],
  },
);

const port = Number(process.env.PORT || 3000);
const platform = await launchPlatform({
  mongoUrl: urls.MONGO_URL,
  natsUrl: urls.NATS_URL,
  dbPrefix: "billing",
  gatewayPort: port,
  logDir: join(root, ".infra", "logs"),
  echo: process.env.ECHO_LOGS === "1",
}).catch((err) => {
  console.error(err.message);
  if (startedInfra) infra("down");
  process.exit(1);
});

console.log(`
Billing platform is up.
  API:      http://127.0.0.1:${port}/api/v1
  API key:  ${apiKey}
  Health:   http://127.0.0.1:${port}/health    Metrics: http://127.0.0.1:${platform.env.gateway.METRICS_PORT}/metrics (the gateway's; each service's on its METRICS_PORT)
  Logs:     ${join(root, ".infra", "logs")}/<service>.log
  MongoDB:  ${urls.MONGO_URL}    NATS: ${urls.NATS_URL}

Try:
  curl -s -X POST http://127.0.0.1:${port}/api/v1/customers \\
    -H "Authorization: Bearer ${apiKey}" -H "Content-Type: application/json" \\
    -d '{"customer":{"external_id":"cust_001","name":"Acme","currency":"USD","country":"FR"}}'

Ctrl-C stops everything.`);

let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  console.log("\nstopping services…");
  await platform.stop();
  if (startedInfra) infra("down");
  process.exit(0);
}
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
for (const [name, child] of platform.processes) {
  child.on("exit", (code, signal) => {
    if (!stopping) console.error(`${name} exited (${signal ?? code}); see .infra/logs/${name}.log`);
  });
}
