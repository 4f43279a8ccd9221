import { execFile, execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface Infrastructure {
  mongoUrl: string;
  natsUrl: string;
  /** How it was obtained: given by env, started with testcontainers, or by scripts/infra.sh. */
  source: "env" | "testcontainers" | "infra-script";
  stop(): Promise<void>;
}

export function repoRoot(): string {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, "scripts", "infra.sh")) && existsSync(join(dir, "turbo.json"))) return dir;
  }
  throw new Error("repository root not found");
}

async function dockerReachable(): Promise<boolean> {
  try {
    await run("docker", ["info", "--format", "{{.ServerVersion}}"], { timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}

async function startContainers(): Promise<Infrastructure> {
  const { GenericContainer, Wait } = await import("testcontainers");
  const mongo = await new GenericContainer("mongo:7").withExposedPorts(27017).start();
  const nats = await new GenericContainer("nats:2")
    .withCommand(["-js"])
    .withExposedPorts(4222)
    .withWaitStrategy(Wait.forLogMessage(/Server is ready/))
    .start();
  return {
    mongoUrl: `mongodb://${mongo.getHost()}:${mongo.getMappedPort(27017)}`,
    natsUrl: `nats://${nats.getHost()}:${nats.getMappedPort(4222)}`,
    source: "testcontainers",
    stop: async () => {
      await Promise.all([mongo.stop(), nats.stop()]);
    },
  };
}

function infraScript(...args: string[]): string {
  return execFileSync("bash", [join(repoRoot(), "scripts", "infra.sh"), ...args], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    // a test run needs no document to survive the server (the fault suite restarts a server of its
    // own, on its H2 file): the memory backend costs the run about half the server's CPU of H2's store
    env: {
      ...process.env,
      MONGO_URL: "",
      NATS_URL: "",
      INFRA_MONGO_BACKEND: process.env.INFRA_MONGO_BACKEND ?? "memory",
      INFRA_MONGO_HEAP: process.env.INFRA_MONGO_HEAP ?? "6g",
    },
  });
}

/**
 * The servers tests run against: MONGO_URL/NATS_URL when set; else containers
 * when a Docker engine answers; else the project's own servers (scripts/infra.sh),
 * which are stopped afterwards only if this call started them.
 */
export async function startInfrastructure(): Promise<Infrastructure> {
  const { MONGO_URL, NATS_URL } = process.env;
  if (MONGO_URL && NATS_URL) {
    return { mongoUrl: MONGO_URL, natsUrl: NATS_URL, source: "env", stop: async () => undefined };
  }
  if (await dockerReachable()) return startContainers();
  const wasRunning = /nats: running/.test(infraScript("status")) && /mongo: running/.test(infraScript("status"));
  const urls = Object.fromEntries(
    infraScript("up")
      .trim()
      .split("\n")
      .map((line) => line.split("=", 2) as [string, string]),
  );
  return {
    mongoUrl: urls.MONGO_URL!,
    natsUrl: urls.NATS_URL!,
    source: "infra-script",
    stop: async () => {
      if (!wasRunning) infraScript("down");
    },
  };
}
