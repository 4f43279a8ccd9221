import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import mongoose, { type Connection } from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  connectBus,
  deadLetterId,
  ensureStream,
  makeEnvelope,
  PoisonMessage,
  publishEnvelope,
  replayDeadLetter,
  runBatchConsumer,
  runConsumer,
  type Bus,
  type DeadLetter,
  type DeadLetterStore,
  type Envelope,
} from "@billing/bus";
import { AppError } from "@billing/errors";
import { silentLogger } from "@billing/logger";
import { connectMongo, initModels, MongoDeadLetterStore } from "@billing/mongo";
import { metricsRegistry } from "@billing/telemetry";
import { dropDatabases, infraUrls, repoRoot, uniqueName, waitFor } from "@billing/testkit";

// A stream and a database of this file's own; the bus carries the consumer defaults as runService
// sets them (the service's dead_letters store), with a tiny backoff so that many redeliveries take
// little time.
const stream = uniqueName("dlq").toUpperCase();
const subjectRoot = `billing.${stream.toLowerCase()}`;
const dbName = uniqueName("dead_letters");
let connection: Connection;
let store: MongoDeadLetterStore;
let bus: Bus;

beforeAll(async () => {
  connection = await connectMongo({ url: infraUrls().mongoUrl, dbName });
  store = new MongoDeadLetterStore(connection);
  await initModels(connection);
  bus = await connectBus({
    url: infraUrls().natsUrl,
    name: "dead-letters-test",
    consumerDefaults: { deadLetters: store, retryBaseMs: 1, retryMaxMs: 10, parkUnknownAfter: 50 },
  });
  await ensureStream(bus.jsm, { name: stream, subjects: [`${subjectRoot}.>`] });
});

afterAll(async () => {
  await bus.jsm.streams.delete(stream).catch(() => undefined);
  await bus.close();
  await connection.close();
  await dropDatabases(infraUrls().mongoUrl, [dbName]);
});

const subjectOf = (entity: string) => `${subjectRoot}.${entity}.created`;
const envelope = (entity: string, data: unknown): Envelope =>
  makeEnvelope({ type: subjectOf(entity), organizationId: "org-dlq", data, occurredAt: new Date() });
const nOf = (e: Envelope) => (e.data as { n: number }).n;
const lettersOf = (subject: string) =>
  connection.collection<{ _id: string; subject: string }>("dead_letters").find({ subject }).toArray();

async function parkedCount(subject: string, reason: string): Promise<number> {
  const metric = metricsRegistry.getSingleMetric("dead_letters_total");
  const values = metric ? (await metric.get()).values : [];
  return values.find((v) => v.labels.subject === subject && v.labels.reason === reason)?.value ?? 0;
}

/** The durable's backlog: nothing pending, nothing waiting for an acknowledgement. */
async function drained(durable: string): Promise<boolean> {
  const info = await bus.jsm.consumers.info(stream, durable);
  return info.num_pending === 0 && info.num_ack_pending === 0;
}

describe("consumers that never give up on money", () => {
  it("redelivers a transiently failing message with backoff for as long as it takes (65 failures), then acks it; nothing is parked", async () => {
    const subject = subjectOf("transient");
    await publishEnvelope(bus.js, envelope("transient", { n: 1 }));
    const durable = uniqueName("transient");
    let attempts = 0;
    const consumer = await runConsumer({
      bus,
      stream,
      durable,
      filterSubjects: [subject],
      logger: silentLogger,
      handler: async () => {
        attempts += 1;
        // the charge's peer is away: a gRPC UNAVAILABLE, as RpcClient reports it
        if (attempts <= 65)
          throw Object.assign(new AppError("unavailable", undefined, undefined, "connect ECONNREFUSED"), {
            grpcStatus: 14,
          });
      },
    });
    await waitFor(() => attempts > 65, { what: "the 66th delivery", timeoutMs: 20_000 });
    await waitFor(() => drained(durable), { what: "the message acknowledged" });
    await consumer.stop();
    expect(attempts).toBe(66);
    expect(await lettersOf(subject)).toEqual([]);
  });

  it("parks a poison message and an undecodable one once in dead_letters, with their reason, counted; the durable moves on", async () => {
    const subject = subjectOf("poison");
    const poison = envelope("poison", { n: 1 });
    const { seq } = await publishEnvelope(bus.js, poison);
    await publishEnvelope(bus.js, envelope("poison", { n: 2 }));
    await bus.js.publish(subject, new TextEncoder().encode("{not an envelope"));
    await publishEnvelope(bus.js, envelope("poison", { n: 3 }));
    const durable = uniqueName("poison");
    const handled: number[] = [];
    const attempts: number[] = [];
    const consumer = await runConsumer({
      bus,
      stream,
      durable,
      filterSubjects: [subject],
      logger: silentLogger,
      concurrency: 1,
      handler: async (e) => {
        attempts.push(nOf(e));
        if (nOf(e) === 1) throw new PoisonMessage("malformed billing.x event: amount_cents must be an integer");
        handled.push(nOf(e));
      },
    });
    await waitFor(async () => handled.includes(3) && (await drained(durable)), {
      what: "the messages after the poison one",
    });
    await consumer.stop();
    expect(attempts).toEqual([1, 2, 3]); // the poison message handled once, never redelivered
    expect(handled).toEqual([2, 3]);

    const letters = await store.list({ durable });
    expect(letters.map((l) => l.reason).sort()).toEqual(["poison", "undecodable"]);
    const letter = letters.find((l) => l.reason === "poison")!;
    expect(letter).toMatchObject({
      id: deadLetterId(stream, durable, seq),
      stream,
      durable,
      subject,
      stream_seq: seq,
      envelope_id: poison.id,
      organization_id: "org-dlq",
      body_encoding: "utf8",
      error: "Error: malformed billing.x event: amount_cents must be an integer",
      deliveries: 1,
      parks: 1,
      status: "parked",
      replayed_at: null,
      replay_count: 0,
    });
    expect(JSON.parse(letter.body!)).toEqual(poison);
    expect(letter.headers).toContainEqual({ key: "Billing-Organization", value: "org-dlq" });
    expect(letter.headers.some((h) => h.key.startsWith("Nats-"))).toBe(false);
    const undecodable = letters.find((l) => l.reason === "undecodable")!;
    expect(undecodable).toMatchObject({ body: "{not an envelope", envelope_id: null, organization_id: null });
    expect(await parkedCount(subject, "poison")).toBe(1);
    expect(await parkedCount(subject, "undecodable")).toBe(1);

    // a redelivery of a parked message (its termination lost, say) finds its record: stored once, counted once
    const again = {
      id: letter.id,
      stream,
      durable,
      subject,
      streamSeq: seq,
      envelopeId: poison.id,
      organizationId: "org-dlq",
      body: new TextEncoder().encode(letter.body!),
      headers: letter.headers,
      reason: "poison" as const,
      error: "again",
      deliveries: 2,
      parkedAt: new Date(),
      replayOf: null,
    };
    expect(await store.park(again)).toBe(false);
    expect((await lettersOf(subject)).length).toBe(2);
    expect((await store.find(letter.id))!.error).toBe(letter.error);
  });

  it("parks an unknown failure after parkUnknownAfter deliveries (with backoff in between)", async () => {
    const subject = subjectOf("bug");
    await publishEnvelope(bus.js, envelope("bug", { n: 1 }));
    const durable = uniqueName("bug");
    let attempts = 0;
    const consumer = await runConsumer({
      bus,
      stream,
      durable,
      filterSubjects: [subject],
      logger: silentLogger,
      parkUnknownAfter: 5,
      handler: async () => {
        attempts += 1;
        throw new TypeError("Cannot read properties of undefined (reading 'currency')");
      },
    });
    await waitFor(async () => (await store.list({ durable })).length === 1 && (await drained(durable)), {
      what: "the message parked",
    });
    await consumer.stop();
    expect(attempts).toBe(5);
    const [letter] = await store.list({ durable });
    expect(letter).toMatchObject({
      reason: "unknown_error_after_5",
      deliveries: 5,
      error: "TypeError: Cannot read properties of undefined (reading 'currency')",
    });
    expect(await parkedCount(subject, "unknown_error_after_5")).toBe(1);
  });

  it("replays a dead letter (the dead-letters command) to its durable only, and marks it replayed", async () => {
    const subject = subjectOf("replayed");
    const charge = envelope("replayed", { n: 1 });
    await publishEnvelope(bus.js, charge);
    const mine = uniqueName("charges");
    const other = uniqueName("webhooks");
    let fixed = false;
    const charged: string[] = [];
    const seenByOther: string[] = [];
    const consumers = [
      await runConsumer({
        bus,
        stream,
        durable: mine,
        filterSubjects: [subject],
        logger: silentLogger,
        handler: async (e) => {
          if (!fixed) throw new PoisonMessage("refused before the fix");
          charged.push(e.id);
        },
      }),
      await runConsumer({
        bus,
        stream,
        durable: other,
        filterSubjects: [subject],
        logger: silentLogger,
        handler: async (e) => void seenByOther.push(e.id),
      }),
    ];
    await waitFor(async () => (await store.list({ durable: mine })).length === 1 && seenByOther.length === 1, {
      what: "parked by one durable, handled by the other",
    });
    const [letter] = await store.list({ durable: mine });

    // the cause is fixed; the operator replays it with the command
    fixed = true;
    const root = repoRoot();
    const { stdout } = await promisify(execFile)(
      join(root, "node_modules/.bin/tsx"),
      [
        join(root, "libs/runtime/src/cli/dead-letters.ts"),
        "replay",
        "--service",
        "payment",
        "--db",
        dbName,
        "--id",
        letter!.id,
        "--json",
      ],
      {
        env: { ...process.env, MONGO_URL: infraUrls().mongoUrl, NATS_URL: infraUrls().natsUrl },
      },
    );
    const { replays } = JSON.parse(stdout) as { replays: Array<{ id: string; outcome: string; stream_seq: number }> };
    expect(replays).toEqual([{ id: letter!.id, outcome: "replayed", stream_seq: expect.any(Number) }]);

    await waitFor(() => charged.length === 1, { what: "the replay handled by its durable" });
    await waitFor(async () => (await drained(mine)) && (await drained(other)), {
      what: "both durables past the replay",
    });
    await Promise.all(consumers.map((c) => c.stop()));
    expect(charged).toEqual([charge.id]);
    expect(seenByOther).toEqual([charge.id]); // the other durable acknowledged the replay unread
    const replayed = (await store.find(letter!.id))!;
    expect(replayed).toMatchObject({ status: "replayed", replay_count: 1, parks: 1 });
    expect(replayed.replayed_at).toBeInstanceOf(Date);
  });

  it("a replay refused again parks its record again (once), not a second record", async () => {
    const subject = subjectOf("again");
    await publishEnvelope(bus.js, envelope("again", { n: 1 }));
    const durable = uniqueName("again");
    let attempts = 0;
    const consumer = await runConsumer({
      bus,
      stream,
      durable,
      filterSubjects: [subject],
      logger: silentLogger,
      handler: async () => {
        attempts += 1;
        throw new PoisonMessage("still refused");
      },
    });
    await waitFor(async () => (await store.list({ durable })).length === 1, { what: "parked" });
    const [letter] = await store.list({ durable });
    expect(await store.markReplayed(letter!, new Date())).toBe(true);
    await replayDeadLetter(bus.js, letter!);
    await waitFor(async () => (await store.find(letter!.id))?.status === "parked" && (await drained(durable)), {
      what: "parked again",
    });
    await consumer.stop();
    expect(attempts).toBe(2);
    expect(await store.list({ durable })).toEqual([
      expect.objectContaining({ id: letter!.id, parks: 2, replay_count: 1, status: "parked" }),
    ]);
    expect(await parkedCount(subject, "poison")).toBe(2);
  });

  it("loses nothing when the dead letter cannot be written: the message comes back until it is stored", async () => {
    const subject = subjectOf("unstored");
    const poison = envelope("unstored", { n: 1 });
    await publishEnvelope(bus.js, poison);
    // a store whose database is gone (its connection closed), then the service's own again
    const lost = await mongoose.createConnection(infraUrls().mongoUrl, { dbName, bufferCommands: false }).asPromise();
    const unreachable = new MongoDeadLetterStore(lost);
    await lost.close();
    let writable = false;
    const switching: DeadLetterStore = { park: (m) => (writable ? store : unreachable).park(m) };
    const durable = uniqueName("unstored");
    let attempts = 0;
    const consumer = await runConsumer({
      bus,
      stream,
      durable,
      filterSubjects: [subject],
      logger: silentLogger,
      deadLetters: switching,
      handler: async () => {
        attempts += 1;
        throw new PoisonMessage("refused");
      },
    });
    await waitFor(() => attempts >= 4, { what: "redeliveries while the dead letter cannot be written" });
    expect(await lettersOf(subject)).toEqual([]);
    expect(await drained(durable)).toBe(false); // still the durable's
    writable = true;
    let parked: DeadLetter | undefined;
    await waitFor(async () => (parked = (await store.list({ durable }))[0]) !== undefined && (await drained(durable)), {
      what: "parked once the store is back",
    });
    await consumer.stop();
    expect(parked).toMatchObject({ envelope_id: poison.id, reason: "poison", parks: 1 });
    expect(parked!.deliveries).toBeGreaterThanOrEqual(5);
    expect((await lettersOf(subject)).length).toBe(1);
  });

  it("parks a message whose body left the stream before a headers-only durable read it (body_gone)", async () => {
    const subject = subjectOf("gone");
    const gone = envelope("gone", { n: 1 });
    const { seq } = await publishEnvelope(bus.js, gone);
    const durable = uniqueName("gone");
    let handled = 0;
    const consumer = await runConsumer({
      bus,
      stream,
      durable,
      filterSubjects: [subject],
      logger: silentLogger,
      headersOnly: true,
      // asked before the body is read: the stream loses the message meanwhile (its retention, say)
      skip: async () => {
        await bus.jsm.streams.purge(stream, { filter: subject });
        return false;
      },
      handler: async () => void handled++,
    });
    await waitFor(async () => (await store.list({ durable })).length === 1 && (await drained(durable)), {
      what: "parked without its body",
    });
    await consumer.stop();
    expect(handled).toBe(0);
    expect(await store.list({ durable })).toEqual([
      expect.objectContaining({
        id: deadLetterId(stream, durable, seq),
        reason: "body_gone",
        body: null,
        body_encoding: null,
        envelope_id: null,
        organization_id: "org-dlq",
      }),
    ]);
    expect(await parkedCount(subject, "body_gone")).toBe(1);
  });

  it("a batch consumer parks a poison message alone, stores the rest, and never parks a transient failure", async () => {
    const subject = subjectOf("batched");
    for (let n = 0; n < 12; n++) await publishEnvelope(bus.js, envelope("batched", { n }));
    const durable = uniqueName("batched");
    const stored = new Set<number>();
    let unavailable = 0;
    const consumer = await runBatchConsumer({
      bus,
      stream,
      durable,
      filterSubjects: [subject],
      logger: silentLogger,
      maxBatch: 5,
      handler: async (envelopes) => {
        // the pricing peer away for the first ten calls: every batch comes back
        if (unavailable++ < 10) throw new AppError("unavailable");
        if (envelopes.some((e) => nOf(e) === 7)) throw new PoisonMessage("cannot be priced");
        return async () => void envelopes.forEach((e) => stored.add(nOf(e)));
      },
    });
    await waitFor(async () => stored.size === 11 && (await drained(durable)), {
      what: "every other message stored",
      timeoutMs: 20_000,
    });
    await consumer.stop();
    expect([...stored].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11]);
    const letters = await store.list({ durable });
    expect(letters.map((l) => [l.reason, (JSON.parse(l.body!) as Envelope<{ n: number }>).data.n])).toEqual([
      ["poison", 7],
    ]);
  });
});
