import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  connectBus,
  ensureStream,
  makeEnvelope,
  PoisonMessage,
  publishEnvelope,
  runBatchConsumer,
  runConsumer,
  RetryLater,
  type Bus,
  type Envelope,
} from "@billing/bus";
import { atFrozenTime, systemClock } from "@billing/clock";
import { silentLogger } from "@billing/logger";
import { infraUrls, uniqueName, waitFor } from "@billing/testkit";

// A stream of this file's own, on subjects no service uses.
const stream = uniqueName("bus").toUpperCase();
const subjectRoot = `billing.${stream.toLowerCase()}`;
let bus: Bus;

beforeAll(async () => {
  bus = await connectBus({ url: infraUrls().natsUrl, name: "bus-test" });
  await ensureStream(bus.jsm, { name: stream, subjects: [`${subjectRoot}.>`] });
});

afterAll(async () => {
  await bus.jsm.streams.delete(stream).catch(() => undefined);
  await bus.close();
});

function envelope(entity: string, data: unknown): Envelope {
  return makeEnvelope({
    type: `${subjectRoot}.${entity}.created`,
    organizationId: "org-1",
    data,
    occurredAt: new Date(),
  });
}

describe("bus", () => {
  it("stores a republished envelope once (msgID = envelope id)", async () => {
    const e = envelope("thing", { n: 1 });
    const first = await publishEnvelope(bus.js, e);
    const again = await publishEnvelope(bus.js, e);
    expect(first.duplicate).toBe(false);
    expect(again.duplicate).toBe(true);
    expect(again.seq).toBe(first.seq);

    const received: Envelope[] = [];
    const consumer = await runConsumer({
      bus,
      stream,
      durable: uniqueName("dedup"),
      filterSubjects: [`${subjectRoot}.thing.created`],
      logger: silentLogger,
      handler: async (env) => void received.push(env),
    });
    await waitFor(() => received.length >= 1, { what: "delivery" });
    await new Promise((r) => setTimeout(r, 300));
    await consumer.stop();
    expect(received).toHaveLength(1);
    expect(received[0]).toEqual(e);
  });

  it("redelivers a message whose handler failed once, then acks it", async () => {
    const e = envelope("flaky", { n: 2 });
    await publishEnvelope(bus.js, e);
    let attempts = 0;
    const consumer = await runConsumer({
      bus,
      stream,
      durable: uniqueName("retry"),
      filterSubjects: [`${subjectRoot}.flaky.created`],
      logger: silentLogger,
      handler: async () => {
        attempts += 1;
        if (attempts === 1) throw new RetryLater("database busy", 50);
      },
    });
    await waitFor(() => attempts >= 2, { what: "redelivery" });
    await new Promise((r) => setTimeout(r, 300));
    await consumer.stop();
    expect(attempts).toBe(2);
  });

  it("resumes a durable consumer where it stopped", async () => {
    const durable = uniqueName("resume");
    const subject = `${subjectRoot}.resume.created`;
    const seen: number[] = [];
    const handler = async (env: Envelope) => void seen.push((env.data as { n: number }).n);
    let consumer = await runConsumer({
      bus,
      stream,
      durable,
      filterSubjects: [subject],
      logger: silentLogger,
      handler,
    });
    await publishEnvelope(bus.js, envelope("resume", { n: 1 }));
    await waitFor(() => seen.length === 1, { what: "first" });
    await consumer.stop();
    await publishEnvelope(bus.js, envelope("resume", { n: 2 }));
    consumer = await runConsumer({ bus, stream, durable, filterSubjects: [subject], logger: silentLogger, handler });
    await waitFor(() => seen.length === 2, { what: "second" });
    await consumer.stop();
    expect(seen).toEqual([1, 2]);
  });

  it("terminates a poison message instead of redelivering it", async () => {
    await publishEnvelope(bus.js, envelope("poison", { n: 3 }));
    await publishEnvelope(bus.js, envelope("poison", { n: 4 }));
    const attempts: number[] = [];
    const consumer = await runConsumer({
      bus,
      stream,
      durable: uniqueName("poison"),
      filterSubjects: [`${subjectRoot}.poison.created`],
      logger: silentLogger,
      handler: async (env) => {
        const n = (env.data as { n: number }).n;
        attempts.push(n);
        if (n === 3) throw new PoisonMessage("cannot ever succeed");
      },
    });
    await waitFor(() => attempts.includes(4), { what: "the next message" });
    await new Promise((r) => setTimeout(r, 500));
    await consumer.stop();
    expect(attempts).toEqual([3, 4]);
  });

  it("refuses an envelope that breaks the schema", async () => {
    const bad = { ...envelope("thing", {}), id: "not-a-uuid" };
    await expect(publishEnvelope(bus.js, bad)).rejects.toThrow();
  });

  it("handles an event of a sandbox organization at the frozen time it was produced at", async () => {
    const frozen = new Date("2024-02-01T00:00:00.000Z");
    const e = atFrozenTime(frozen, () => envelope("frozen", { n: 1 }));
    expect(e.frozen_time).toBe(frozen.toISOString());
    expect(envelope("thawed", {}).frozen_time).toBeUndefined();
    await publishEnvelope(bus.js, e);
    const seen: Date[] = [];
    const consumer = await runConsumer({
      bus,
      stream,
      durable: uniqueName("frozen"),
      filterSubjects: [`${subjectRoot}.frozen.created`],
      logger: silentLogger,
      handler: async () => void seen.push(systemClock.now()),
    });
    await waitFor(() => seen.length >= 1, { what: "delivery" });
    await consumer.stop();
    expect(seen[0]).toEqual(frozen);
  });

  it("handles batches in order, each batch's step while the batch before finishes its rest; a failed rest hands back that batch only", async () => {
    const subject = `${subjectRoot}.batched.created`;
    const sent = Array.from({ length: 40 }, (_, n) => envelope("batched", { n }));
    for (const e of sent) await publishEnvelope(bus.js, e);
    let steps = 0;
    const restOrder: number[] = []; // the step number of each rest that completed
    const stored: number[] = [];
    let inRest = 0;
    let overlapped = false;
    let failedOnce = false;
    const consumer = await runBatchConsumer({
      bus,
      stream,
      durable: uniqueName("batched"),
      filterSubjects: [subject],
      logger: silentLogger,
      maxBatch: 5,
      retryDelayMs: 50,
      handler: async (envelopes) => {
        const ns = envelopes.map((e) => (e.data as { n: number }).n);
        if (inRest > 0) overlapped = true; // this step runs while the batch before is still in its rest
        const step = ++steps;
        return async () => {
          inRest++;
          await new Promise((r) => setTimeout(r, 30));
          inRest--;
          if (!failedOnce && ns.includes(12)) {
            failedOnce = true;
            throw new RetryLater("storage busy", 50);
          }
          restOrder.push(step);
          stored.push(...ns);
        };
      },
    });
    await waitFor(() => new Set(stored).size === 40, { what: "every message stored", timeoutMs: 20_000 });
    await new Promise((r) => setTimeout(r, 300));
    await consumer.stop();
    expect(overlapped).toBe(true);
    expect(failedOnce).toBe(true);
    // each stored once, the failed batch's messages after their redelivery
    expect([...stored].sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, n) => n));
    // rests run in the order their steps ran
    expect(restOrder).toEqual([...restOrder].sort((a, b) => a - b));
  });

  it("passes over, undecoded, the messages its skip rule names by subject and organization header; handles the others", async () => {
    const subject = `${subjectRoot}.skippable.created`;
    const of = (org: string, n: number) =>
      makeEnvelope({ type: subject, organizationId: org, data: { n }, occurredAt: new Date() });
    for (let n = 0; n < 6; n++) await publishEnvelope(bus.js, of(n % 2 ? "org-quiet" : "org-busy", n));
    // published without the header (as before it existed): handled whatever its organization
    const bare = of("org-quiet", 6);
    await bus.js.publish(subject, new TextEncoder().encode(JSON.stringify(bare)), { msgID: bare.id });
    const handled: number[] = [];
    const asked: string[] = [];
    const consumer = await runConsumer({
      bus,
      stream,
      durable: uniqueName("skip"),
      filterSubjects: [subject],
      logger: silentLogger,
      skip: async (subj, org) => {
        asked.push(`${subj}|${org}`);
        return org === "org-quiet";
      },
      handler: async (env) => void handled.push((env.data as { n: number }).n),
    });
    await waitFor(() => handled.length >= 4, { what: "handled" });
    await new Promise((r) => setTimeout(r, 300));
    await consumer.stop();
    expect(handled.sort()).toEqual([0, 2, 4, 6]);
    expect(new Set(asked)).toEqual(new Set([`${subject}|org-busy`, `${subject}|org-quiet`]));
    const info = await bus.jsm.consumers.info(
      stream,
      (await bus.jsm.consumers.list(stream).next()).find((c) => c.config.filter_subjects?.includes(subject))!.name,
    );
    expect(info.num_ack_pending + info.num_pending).toBe(0); // the skipped ones acknowledged too
  });

  it("delivered headers only, skips messages without their bodies and reads the others' bodies from the stream", async () => {
    const subject = `${subjectRoot}.headers.created`;
    const of = (org: string, n: number) =>
      makeEnvelope({
        type: subject,
        organizationId: org,
        data: { n, padding: "x".repeat(10_000) },
        occurredAt: new Date(),
      });
    for (let n = 0; n < 6; n++) await publishEnvelope(bus.js, of(n % 2 ? "org-quiet" : "org-busy", n));
    const handled: number[] = [];
    const sizes: number[] = [];
    const durable = uniqueName("headers");
    const consumer = await runConsumer({
      bus,
      stream,
      durable,
      filterSubjects: [subject],
      logger: silentLogger,
      headersOnly: true,
      skip: async (_subj, org) => org === "org-quiet",
      handler: async (env, msg) => {
        handled.push((env.data as { n: number }).n);
        sizes.push(msg.data.length);
      },
    });
    await waitFor(() => handled.length >= 3, { what: "handled" });
    await new Promise((r) => setTimeout(r, 300));
    await consumer.stop();
    expect(handled.sort()).toEqual([0, 2, 4]);
    expect((await bus.jsm.consumers.info(stream, durable)).config.headers_only).toBe(true);
    expect(sizes).toEqual([0, 0, 0]); // the bodies came from the stream, not the delivery
    const info = await bus.jsm.consumers.info(stream, durable);
    expect(info.num_ack_pending + info.num_pending).toBe(0);
  });
});
