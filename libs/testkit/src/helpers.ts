import { randomBytes } from "node:crypto";
import { createServer } from "node:net";

/** The servers chosen by the global setup (tests/setup/infra.global.ts). */
export function infraUrls(): { mongoUrl: string; natsUrl: string } {
  return {
    mongoUrl: process.env.MONGO_URL || "mongodb://127.0.0.1:27017",
    natsUrl: process.env.NATS_URL || "nats://127.0.0.1:4222",
  };
}

/** A name no other test file uses: databases, streams, durables. */
export function uniqueName(label: string): string {
  return `t_${label.replace(/[^A-Za-z0-9]/g, "_")}_${randomBytes(4).toString("hex")}`;
}

/**
 * Ports for the servers a test launches, checked free, taken in turn (never the port the OS just
 * handed out and took back):
 * - from 10000–26999: below Linux's ephemeral range (32768–60999) on purpose. A port `listen(0)`
 *   handed out and released can be taken by any outgoing connection, or given again to another
 *   process, before the service binds it: two e2e files launching platforms at once once got the
 *   same port for two services (EADDRINUSE, and one platform's clients talking to the other's
 *   service). Also below the infrastructure's (27017, 27019, 27129);
 * - each vitest worker (VITEST_POOL_ID) from a slice of its own, so parallel test files never
 *   take the same port; another process (a benchmark) from a random start.
 */
const PORTS = (() => {
  const from = 10_000;
  const to = 27_000;
  const pool = Number(process.env.VITEST_POOL_ID);
  if (!Number.isInteger(pool) || pool < 1) return { from, to, next: from + Math.floor(Math.random() * (to - from)) };
  const size = Math.floor((to - from) / 16);
  const start = from + ((pool - 1) % 16) * size;
  return { from: start, to: start + size, next: start };
})();

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

export async function freePort(): Promise<number> {
  for (let tries = 0; tries < 500; tries++) {
    const port = PORTS.next;
    PORTS.next = port + 1 >= PORTS.to ? PORTS.from : port + 1;
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port in ${PORTS.from}–${PORTS.to - 1}`);
}

/** Polls until the check returns a truthy value, or fails after the timeout. */
export async function waitFor<T>(check: () => Promise<T> | T, { timeoutMs = 10_000, intervalMs = 50, what = "condition" } = {}): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value) return value;
    } catch (err) {
      lastError = err;
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`timed out waiting for ${what}${lastError ? `: ${String(lastError)}` : ""}`);
}

/** Drops the databases a test file created. */
export async function dropDatabases(mongoUrl: string, names: string[]): Promise<void> {
  const { default: mongoose } = await import("mongoose");
  for (const name of names) {
    const conn = await mongoose.createConnection(mongoUrl, { dbName: name }).asPromise();
    try {
      // the test server sometimes refuses a drop racing a late index build ("index not found with
      // name [_id_]"); a second try succeeds, and a database left behind harms no other test
      for (let attempt = 1; ; attempt++) {
        try {
          await conn.dropDatabase();
          break;
        } catch (err) {
          if (attempt === 3) {
            console.warn(`could not drop the test database ${name}: ${String(err)}`);
            break;
          }
          await new Promise((r) => setTimeout(r, 200 * attempt));
        }
      }
    } finally {
      await conn.close();
    }
  }
}
