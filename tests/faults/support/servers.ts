import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, repoRoot, waitFor } from "@billing/testkit";

/**
 * Servers of a fault-injection run's own: a MongoDB test server (mongo-java-server on its H2 file
 * backend, so its data survives a restart) and a NATS server with JetStream on disk, each on a free
 * port of 127.0.0.1 with its data in a temporary directory. Other test files share the default
 * servers; these can be stopped and started again (same port, same data) without touching them.
 * Processes are ended by their own PID only.
 */
export interface RestartableServer {
  readonly name: string;
  readonly url: string;
  readonly port: number;
  /** the running process's id (null while it is down) */
  pid(): number | null;
  /** Stops the process (SIGTERM, SIGKILL after 10 s; `hard`: SIGKILL at once), waits `downMs`, starts it again on the same port and data. */
  restart(options?: { downMs?: number; hard?: boolean }): Promise<void>;
  /** Stops it for good and removes its data directory (its log stays in the log directory). */
  stop(): Promise<void>;
}

interface Spec {
  name: string;
  dir: string;
  logDir: string;
  port: number;
  url: string;
  command: string;
  args: string[];
  ready: () => Promise<boolean>;
}

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

function restartable(spec: Spec): RestartableServer & { start(): Promise<void> } {
  let child: ChildProcess | null = null;
  const killOnExit = () => child?.kill("SIGKILL");
  process.once("exit", killOnExit);
  const log = join(spec.logDir, `${spec.name}.log`);

  const start = async () => {
    // straight into the file: a pipe would need this process's event loop to drain it, and a server
    // blocked on a full pipe (while this process waits in a synchronous call) stops answering
    const out = openSync(log, "a");
    const started = spawn(spec.command, spec.args, { stdio: ["ignore", out, out] });
    closeSync(out);
    child = started;
    await waitFor(
      async () => {
        if (started.exitCode !== null)
          throw new Error(`${spec.name} exited with code ${started.exitCode} (log: ${log})`);
        return spec.ready();
      },
      { timeoutMs: 60_000, intervalMs: 100, what: `${spec.name} on port ${spec.port}` },
    );
  };
  const halt = async (hard: boolean) => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill(hard ? "SIGKILL" : "SIGTERM");
    const timer = setTimeout(() => running.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
    // the port is free again once the listener is gone
    await waitFor(async () => !(await portOpen(spec.port)), {
      timeoutMs: 10_000,
      what: `${spec.name}'s port released`,
    });
  };
  return {
    name: spec.name,
    url: spec.url,
    port: spec.port,
    pid: () => child?.pid ?? null,
    start,
    restart: async ({ downMs = 0, hard = false } = {}) => {
      await halt(hard);
      if (downMs > 0) await new Promise((r) => setTimeout(r, downMs));
      await start();
    },
    stop: async () => {
      await halt(false);
      process.off("exit", killOnExit);
      rmSync(spec.dir, { recursive: true, force: true });
    },
  };
}

/**
 * A MongoDB test server on a free port (tools/mongo-server, as scripts/infra.sh's start_mongo
 * starts it), H2 backend in a temporary data file. SIGTERM runs its shutdown hook, which closes
 * (flushes) the H2 store, so a restart finds every acknowledged write.
 */
export async function startOwnMongo(options: { logDir: string; heap?: string }): Promise<RestartableServer> {
  const tool = join(repoRoot(), "tools", "mongo-server");
  const jar = join(tool, "target", "mongo-server.jar");
  if (!existsSync(jar)) throw new Error(`the MongoDB test server is not built (${jar}): run scripts/infra.sh install`);
  const dir = mkdtempSync(join(tmpdir(), "billing-faults-mongo-"));
  const port = await freePort();
  const server = restartable({
    name: "mongo",
    dir,
    logDir: options.logDir,
    port,
    url: `mongodb://127.0.0.1:${port}`,
    command: "java",
    args: [
      `-Xmx${options.heap ?? "1g"}`,
      "-cp",
      `${jar}:${join(tool, "target", "lib")}/*`,
      "billing.tools.MongoServerLauncher",
      "--port",
      String(port),
      "--backend",
      "h2",
      "--file",
      join(dir, "data.mv"),
    ],
    ready: () => portOpen(port),
  });
  await server.start();
  return server;
}

/** A NATS server with JetStream on a free port, its store in a temporary directory (kept across restarts). */
export async function startOwnNatsServer(options: { logDir: string }): Promise<RestartableServer> {
  const binary = join(repoRoot(), ".infra", "bin", "nats-server");
  if (!existsSync(binary)) throw new Error(`nats-server is not installed (${binary}): run scripts/infra.sh install`);
  const dir = mkdtempSync(join(tmpdir(), "billing-faults-nats-"));
  const [port, httpPort] = [await freePort(), await freePort()];
  mkdirSync(join(dir, "js"), { recursive: true });
  writeFileSync(
    join(dir, "nats.conf"),
    [
      `listen: 127.0.0.1:${port}`,
      `http: 127.0.0.1:${httpPort}`,
      "max_payload: 8MB",
      `jetstream { store_dir: "${join(dir, "js")}" }`,
    ].join("\n"),
  );
  const server = restartable({
    name: "nats",
    dir,
    logDir: options.logDir,
    port,
    url: `nats://127.0.0.1:${port}`,
    command: binary,
    args: ["-c", join(dir, "nats.conf")],
    ready: async () =>
      (await fetch(`http://127.0.0.1:${httpPort}/healthz?js-enabled-only=true`).catch(() => undefined))?.ok === true,
  });
  await server.start();
  return server;
}
