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

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
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
