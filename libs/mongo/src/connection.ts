import mongoose, { type Connection } from "mongoose";
import type { Logger } from "@billing/logger";

/** The service's one connection to its own database. Models are registered on it, never globally. */
export async function connectMongo(options: { url: string; dbName: string; logger?: Logger }): Promise<Connection> {
  const connection = mongoose.createConnection(options.url, {
    dbName: options.dbName,
    autoIndex: false, // indexes are created once at start-up by awaiting Model.init()
    autoCreate: true,
    serverSelectionTimeoutMS: 10_000,
    maxPoolSize: 20,
  });
  await connection.asPromise();
  options.logger?.info({ db: options.dbName }, "mongo connected");
  return connection;
}

/** Creates every registered model's collection and indexes. */
export async function initModels(connection: Connection): Promise<void> {
  for (const model of Object.values(connection.models)) {
    await model.createCollection().catch(() => undefined);
    await model.createIndexes();
  }
}

/**
 * The indexes of an unordered bulk insert's documents that were duplicates, when duplicates are
 * all that failed; null when anything else went wrong (or it was not a bulk error).
 */
export function duplicateIndexes(err: unknown): number[] | null {
  type WriteError = { index: number; code?: number; err?: { code?: number } };
  const e = err as { writeErrors?: WriteError | WriteError[] };
  if (e?.writeErrors === undefined) return null;
  // the driver reports one write error alone, several as an array
  const errors = Array.isArray(e.writeErrors) ? e.writeErrors : [e.writeErrors];
  if (errors.some((w) => (w.code ?? w.err?.code) !== 11000)) return null;
  return errors.map((w) => w.index);
}

/** A duplicate key, told only by its code (never by the message). */
export function isDuplicateKeyError(err: unknown): boolean {
  const e = err as { code?: number; writeErrors?: Array<{ code?: number; err?: { code?: number } }> };
  if (e?.code === 11000) return true;
  return Boolean(e?.writeErrors?.length && e.writeErrors.every((w) => (w.code ?? w.err?.code) === 11000));
}
