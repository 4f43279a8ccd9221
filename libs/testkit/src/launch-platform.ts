/**
 * Starts the whole platform as processes (the six services and the gateway), on given or free
 * ports: `npm start` (scripts/start-platform.mjs), the end-to-end tests and the benchmarks use it.
 */
import { randomBytes } from "node:crypto";
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, mkdirSync } from "node:fs";
import { join } from "node:path";
import { GATEWAY_METRICS_PORT, GRPC_PORTS, METRICS_PORTS, type BackendService } from "@billing/config";
import { freePort } from "./helpers";
import { repoRoot } from "./infrastructure";

export const BACKEND_SERVICES = Object.keys(GRPC_PORTS) as BackendService[];
export type ServiceName = BackendService | "gateway";

export interface PlatformOptions {
  mongoUrl: string;
  natsUrl: string;
  /** Databases are named `<dbPrefix>_<service>`; consumers' durables are prefixed with it too. */
  dbPrefix?: string;
  gatewayPort?: number;
  /** Pick free gRPC and metrics ports instead of the defaults (tests run several platforms at once). */
  randomPorts?: boolean;
  logDir?: string;
  /** Echo every service's output to this process's stdout. */
  echo?: boolean;
  env?: Record<string, string>;
}

export interface Platform {
  baseUrl: string;
  gatewayPort: number;
  env: Record<ServiceName, Record<string, string>>;
  processes: Map<ServiceName, ChildProcess>;
  start(name: ServiceName): Promise<void>;
  kill(name: ServiceName, signal?: NodeJS.Signals): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts the seven services as separate processes and waits until the gateway reports them all ready.
 * With ports picked at random, one may be taken by another process between the pick and the bind:
 * the launch is then tried once more with new ports.
 */
export async function launchPlatform(options: PlatformOptions): Promise<Platform> {
  try {
    return await launchOnce(options);
  } catch (err) {
    if (!options.randomPorts || options.gatewayPort !== undefined) throw err;
    return launchOnce(options);
  }
}

async function launchOnce(options: PlatformOptions): Promise<Platform> {
  const root = repoRoot();
  const prefix = options.dbPrefix ?? "billing";
  const logDir = options.logDir ?? join(root, ".infra", "logs", prefix);
  mkdirSync(logDir, { recursive: true });
  const gatewayPort = options.gatewayPort ?? (await freePort());
  const grpcPorts = {} as Record<BackendService, number>;
  const metricsPorts = {} as Record<BackendService, number>;
  for (const s of BACKEND_SERVICES) {
    grpcPorts[s] = options.randomPorts ? await freePort() : GRPC_PORTS[s];
    metricsPorts[s] = options.randomPorts ? await freePort() : METRICS_PORTS[s];
  }

  // documents' signed links: one secret per platform, shared by invoicing (signs) and the gateway (verifies)
  const documentLinks = {
    DOCUMENT_LINK_SECRET: randomBytes(24).toString("hex"),
    PUBLIC_API_URL: `http://127.0.0.1:${gatewayPort}/api/v1`,
  };
  const common = {
    NATS_URL: options.natsUrl,
    LOG_LEVEL: process.env.LOG_LEVEL ?? "info",
    ...documentLinks,
    ...options.env,
  };
  const env = {} as Record<ServiceName, Record<string, string>>;
  for (const s of BACKEND_SERVICES) {
    env[s] = {
      ...common,
      GRPC_PORT: String(grpcPorts[s]),
      METRICS_PORT: String(metricsPorts[s]),
      MONGO_URL: options.mongoUrl,
      MONGO_DB: `${prefix}_${s}`,
      DURABLE_PREFIX: prefix,
    };
  }
  // the gateway's /metrics: its own port, never the public one
  const gatewayMetricsPort = options.randomPorts ? await freePort() : GATEWAY_METRICS_PORT;
  env.gateway = { ...common, PORT: String(gatewayPort), METRICS_PORT: String(gatewayMetricsPort) };
  // Every process knows where every backend answers (the catalog calls the customer service, and so on).
  for (const name of [...BACKEND_SERVICES, "gateway" as const]) {
    for (const s of BACKEND_SERVICES) env[name]![`${s.toUpperCase()}_GRPC_ADDR`] = `127.0.0.1:${grpcPorts[s]}`;
  }

  const processes = new Map<ServiceName, ChildProcess>();
  const start = async (name: ServiceName) => {
    const log = createWriteStream(join(logDir, `${name}.log`), { flags: "a" });
    // SERVICE_NODE_ARGS: flags for every service's node (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`,
    // which NODE_OPTIONS does not accept)
    const nodeArgs = process.env.SERVICE_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
    const child = spawn(process.execPath, [...nodeArgs, join(root, "services", name, "dist", "main.js")], {
      env: { ...process.env, ...env[name] },
      stdio: ["ignore", "pipe", "pipe"],
    });
    for (const stream of [child.stdout!, child.stderr!]) {
      stream.pipe(log, { end: false });
      if (options.echo) stream.on("data", (chunk: Buffer) => process.stdout.write(chunk));
    }
    child.once("close", () => log.end());
    processes.set(name, child);
  };
  const kill = async (name: ServiceName, signal: NodeJS.Signals = "SIGTERM") => {
    const child = processes.get(name);
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill(signal);
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
  };

  const baseUrl = `http://127.0.0.1:${gatewayPort}`;
  const platform: Platform = {
    baseUrl,
    gatewayPort,
    env,
    processes,
    start: async (name) => {
      await start(name);
      await waitUntilReady(baseUrl, processes);
    },
    kill,
    stop: async () => {
      await Promise.all([...processes.keys()].map((name) => kill(name)));
    },
  };
  try {
    for (const name of [...BACKEND_SERVICES, "gateway" as const]) await start(name);
    await waitUntilReady(baseUrl, processes);
  } catch (err) {
    await platform.stop();
    throw new Error(`platform did not start (logs in ${logDir}): ${(err as Error).message}`);
  }
  return platform;
}

async function waitUntilReady(baseUrl: string, processes: Map<ServiceName, ChildProcess>): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    for (const [name, child] of processes) {
      if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode}`);
    }
    const res = await fetch(`${baseUrl}/health`).catch(() => undefined);
    if (res?.status === 200) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("timed out waiting for the platform to be ready");
}
