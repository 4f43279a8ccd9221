#!/usr/bin/env node
import { parseArgs } from "node:util";
import { z } from "zod";
import { connectBus, replayDeadLetter, type DeadLetter } from "@billing/bus";
import { GRPC_PORTS, type BackendService } from "@billing/config";
import { connectMongo, MongoDeadLetterStore } from "@billing/mongo";
import { parseServiceConfig } from "../index";

const USAGE = `usage: npm run dead-letters -- <command> --service <name> [options]

  list --service <name> [--status parked|replayed] [--durable <durable>] [--limit <n>] [--json]
      the service's parked messages, oldest first (100 unless --limit): id, status, reason,
      durable, subject, stream sequence, deliveries, parked_at, replays, error
  replay --service <name> (--id <id> | --all) [--durable <durable>] [--json]
      publishes a parked message's body again on its subject, with a fresh message id and a header
      naming its durable (only that durable handles it; the others on the subject skip it), and marks
      it replayed (replayed_at, replay_count). --all: every message still parked (of --durable only,
      when given); --id: that one, parked or replayed before. A message whose body was gone from the
      stream (reason body_gone) cannot be replayed.

<name>: ${Object.keys(GRPC_PORTS).join(", ")}.
Reads MONGO_URL / MONGO_DB (defaults mongodb://127.0.0.1:27017 / billing_<name>; --db <name>
overrides MONGO_DB) and, to replay, NATS_URL (nats://127.0.0.1:4222).`;

function usage(code: number): never {
  (code === 0 ? console.log : console.error)(USAGE);
  process.exit(code);
}

const isService = (name: string | undefined): name is BackendService =>
  name !== undefined && Object.hasOwn(GRPC_PORTS, name);
const iso = (d: Date | null) => (d ? d.toISOString() : null);

function view(letter: DeadLetter) {
  return {
    id: letter.id,
    status: letter.status,
    reason: letter.reason,
    stream: letter.stream,
    durable: letter.durable,
    subject: letter.subject,
    stream_seq: letter.stream_seq,
    envelope_id: letter.envelope_id,
    organization_id: letter.organization_id,
    error: letter.error,
    deliveries: letter.deliveries,
    parks: letter.parks,
    first_parked_at: iso(letter.first_parked_at),
    parked_at: iso(letter.parked_at),
    replayed_at: iso(letter.replayed_at),
    replay_count: letter.replay_count,
    headers: letter.headers,
    body: letter.body,
    body_encoding: letter.body_encoding,
  };
}

function table(letters: DeadLetter[]): string {
  const rows = [["ID", "STATUS", "REASON", "DURABLE", "SUBJECT", "SEQ", "DELIVERIES", "PARKED_AT", "REPLAYS", "ERROR"]];
  for (const l of letters) {
    const error = (l.error ?? "-").replace(/\s+/g, " ");
    rows.push([
      l.id,
      l.status,
      l.reason,
      l.durable,
      l.subject,
      String(l.stream_seq),
      String(l.deliveries),
      iso(l.parked_at)!,
      String(l.replay_count),
      error.length > 80 ? `${error.slice(0, 79)}…` : error,
    ]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

type ReplayOutcome =
  { id: string; outcome: "replayed"; stream_seq: number } | { id: string; outcome: "skipped" | "failed"; why: string };

/**
 * npm run dead-letters -- list|replay --service <name> …: the messages a service's consumers
 * parked (its `dead_letters` collection), and their replay once what refused them is fixed.
 */
async function main() {
  const options = {
    service: { type: "string" },
    db: { type: "string" },
    id: { type: "string" },
    all: { type: "boolean" },
    status: { type: "string" },
    durable: { type: "string" },
    limit: { type: "string" },
    json: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  } as const;
  let parsed;
  try {
    parsed = parseArgs({ allowPositionals: true, options });
  } catch (err) {
    console.error((err as Error).message);
    usage(2);
  }
  const { values, positionals } = parsed;
  if (values.help) usage(0);
  const [command, ...extra] = positionals;
  const service = values.service;
  if (!command || extra.length > 0 || !["list", "replay"].includes(command) || !isService(service)) usage(2);
  if (command === "replay" && !values.id === !values.all) usage(2);
  if (command === "list" && (values.id !== undefined || values.all !== undefined)) usage(2);
  if (command === "replay" && (values.status !== undefined || values.limit !== undefined)) usage(2);
  const status = z.enum(["parked", "replayed"]).optional().safeParse(values.status);
  const limit = z.coerce.number().int().positive().optional().safeParse(values.limit);
  if (!status.success || !limit.success) usage(2);

  // the service's own settings (MONGO_URL, MONGO_DB: billing_<service> by default, NATS_URL)
  const config = parseServiceConfig(service, z.object({}));
  const dbName = values.db ?? config.MONGO_DB;
  const connection = await connectMongo({ url: config.MONGO_URL, dbName });
  try {
    const store = new MongoDeadLetterStore(connection);
    if (command === "list") {
      const letters = await store.list({ status: status.data, durable: values.durable, limit: limit.data });
      if (values.json) console.log(JSON.stringify({ dead_letters: letters.map(view) }));
      else console.log(letters.length === 0 ? `no dead letters in ${dbName}` : table(letters));
      return;
    }
    const letters = values.id
      ? [await store.find(values.id)].filter((l): l is DeadLetter => l !== null)
      : await store.list({ status: "parked", durable: values.durable, limit: 100_000 });
    if (values.id && letters.length === 0) throw new Error(`no dead letter ${values.id} in ${dbName}`);
    const bus = await connectBus({ url: config.NATS_URL, name: `dead-letters-${service}` });
    const outcomes: ReplayOutcome[] = [];
    try {
      for (const letter of letters) {
        if (letter.body === null) {
          outcomes.push({ id: letter.id, outcome: "skipped", why: `no body to replay (${letter.reason})` });
          continue;
        }
        // marked first: a replay that fails again at once finds it replayed and parks it again
        if (!(await store.markReplayed(letter, new Date()))) {
          outcomes.push({ id: letter.id, outcome: "skipped", why: "replayed by someone else meanwhile" });
          continue;
        }
        try {
          const { seq } = await replayDeadLetter(bus.js, letter);
          outcomes.push({ id: letter.id, outcome: "replayed", stream_seq: seq });
        } catch (err) {
          await store.unmarkReplayed(letter);
          const message = err instanceof Error ? err.message : String(err);
          outcomes.push({
            id: letter.id,
            outcome: "failed",
            why: `not published on ${letter.subject} into ${letter.stream} (${message === "503" ? "no such stream, or JetStream unavailable" : message}); left ${letter.status}`,
          });
        }
      }
    } finally {
      await bus.close();
    }
    if (values.json) console.log(JSON.stringify({ replays: outcomes }));
    else {
      for (const o of outcomes)
        console.log(
          o.outcome === "replayed"
            ? `replayed ${o.id} (stream sequence ${o.stream_seq})`
            : `${o.outcome} ${o.id}: ${o.why}`,
        );
      if (outcomes.length === 0) console.log(`nothing to replay in ${dbName}`);
    }
    if (outcomes.some((o) => o.outcome === "failed")) process.exitCode = 1;
  } finally {
    await connection.close();
  }
}

main().catch((err) => {
  console.error(`dead-letters failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
