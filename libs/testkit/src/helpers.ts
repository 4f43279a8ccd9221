import { randomBytes } from "node:crypto";
import { mkdirSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

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
 * Ports for the servers a test launches, from 10000–26999 (below Linux's ephemeral range,
 * 32768–60999, and the infrastructure's ports, 27017 and up). Not `listen(0)`: a port the OS hands
 * out and takes back can be taken by an outgoing connection, or handed to another process, before
 * the service binds it (two e2e files launching at once got the same port for two services). Each
 * port is reserved across processes for RESERVATION_MS by a file created exclusively (`wx`) in
 * the temporary directory, then checked free; test processes take them in turn from a random
 * start. A reservation older than that is taken back (its platform has long stopped).
 */
const PORTS = { from: 10_000, to: 27_000 };
const RESERVATION_MS = 30 * 60_000;
const reservations = join(tmpdir(), "billing-test-ports");
let nextPort = PORTS.from + Math.floor(Math.random() * (PORTS.to - PORTS.from));

function reserve(port: number): boolean {
  const file = join(reservations, String(port));
  const create = () => {
    try {
      writeFileSync(file, String(process.pid), { flag: "wx" });
      return true;
    } catch {
      return false;
    }
  };
  mkdirSync(reservations, { recursive: true });
  if (create()) return true;
  try {
    if (Date.now() - statSync(file).mtimeMs < RESERVATION_MS) return false;
    unlinkSync(file);
  } catch {
    return false;
  }
  return create();
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

export async function freePort(): Promise<number> {
  for (let tries = 0; tries < 2_000; tries++) {
    const port = nextPort;
    nextPort = port + 1 >= PORTS.to ? PORTS.from : port + 1;
    if (reserve(port) && (await canListen(port))) return port;
  }
  throw new Error(`no free port in ${PORTS.from}–${PORTS.to - 1}`);
}

/** What a truthy check returned: never null, undefined, false, 0 or "". */
export type Truthy<T> = Exclude<T, null | undefined | false | 0 | "">;

/** Polls until the check returns a truthy value, or fails after the timeout. */
export async function waitFor<T>(
  check: () => Promise<T> | T,
  { timeoutMs = 10_000, intervalMs = 50, what = "condition" } = {},
): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value) return value as Truthy<T>; // narrowed by the test above, which TypeScript cannot express
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
    // a server already stopped (the run's last teardowns) has nothing left to drop
    const conn = await mongoose
      .createConnection(mongoUrl, { dbName: name, serverSelectionTimeoutMS: 3_000 })
      .asPromise()
      .catch(() => null);
    if (!conn) return;
    try {
      await dropTestDatabase(conn);
    } finally {
      await conn.close();
    }
  }
}

/**
 * Drops a test's database through its open connection (none: nothing to drop). The test server
 * sometimes refuses a drop racing a late index build ("index not found with name [_id_]"): a later
 * try succeeds, and a database left behind harms no other test, so it only warns after three.
 */
export async function dropTestDatabase(
  connection: { name: string; dropDatabase(): Promise<unknown> } | undefined,
): Promise<void> {
  if (!connection) return;
  for (let attempt = 1; ; attempt++) {
    try {
      await connection.dropDatabase();
      return;
    } catch (err) {
      if (attempt === 3) {
        console.warn(`could not drop the test database ${connection.name}: ${String(err)}`);
        return;
      }
      await new Promise((r) => setTimeout(r, 200 * attempt));
    }
  }
}
