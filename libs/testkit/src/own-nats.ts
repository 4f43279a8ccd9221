import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, waitFor } from "./helpers";
import { repoRoot } from "./infrastructure";

export interface OwnNats {
  url: string;
  stop(): Promise<void>;
}

/**
 * A NATS server of a test platform's own, JetStream in a temporary directory, started from the
 * binary `scripts/infra.sh install` builds. Platforms that share one server see each other's
 * streams: every consumer of one platform reads (and works on) the others' organizations, and a
 * new platform replays the history of all earlier ones. A server each costs ~20 MB and 50 ms.
 * Null when the binary is not installed (the shared server is then used).
 */
export async function startOwnNats(): Promise<OwnNats | null> {
  const binary = join(repoRoot(), ".infra", "bin", "nats-server");
  if (!existsSync(binary)) return null;
  const dir = mkdtempSync(join(tmpdir(), "billing-nats-"));
  const [port, httpPort] = [await freePort(), await freePort()];
  writeFileSync(
    join(dir, "nats.conf"),
    [
      `listen: 127.0.0.1:${port}`,
      `http: 127.0.0.1:${httpPort}`,
      "max_payload: 8MB",
      `jetstream { store_dir: "${join(dir, "js")}" }`,
    ].join("\n"),
  );
  const child = spawn(binary, ["-c", join(dir, "nats.conf")], { stdio: "ignore" });
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  const stop = async () => {
    process.off("exit", killOnExit);
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(async () => (await fetch(`http://127.0.0.1:${httpPort}/healthz?js-enabled-only=true`)).ok, {
      timeoutMs: 20_000,
      what: "own NATS server",
    });
  } catch (err) {
    await stop();
    throw err;
  }
  return { url: `nats://127.0.0.1:${port}`, stop };
}
