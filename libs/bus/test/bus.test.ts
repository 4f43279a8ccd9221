import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectBus, ensureStream, makeEnvelope, PoisonMessage, publishEnvelope, runConsumer, RetryLater, type Bus, type Envelope } from "@billing/bus";
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
  return makeEnvelope({ type: `${subjectRoot}.${entity}.created`, organizationId: "org-1", data, occurredAt: new Date() });
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
      bus, stream, durable: uniqueName("dedup"), filterSubjects: [`${subjectRoot}.thing.created`], logger: silentLogger,
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
      bus, stream, durable: uniqueName("retry"), filterSubjects: [`${subjectRoot}.flaky.created`], logger: silentLogger,
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
    let consumer = await runConsumer({ bus, stream, durable, filterSubjects: [subject], logger: silentLogger, handler });
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
      bus, stream, durable: uniqueName("poison"), filterSubjects: [`${subjectRoot}.poison.created`], logger: silentLogger,
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
      bus, stream, durable: uniqueName("frozen"), filterSubjects: [`${subjectRoot}.frozen.created`], logger: silentLogger,
      handler: async () => void seen.push(systemClock.now()),
    });
    await waitFor(() => seen.length >= 1, { what: "delivery" });
    await consumer.stop();
    expect(seen[0]).toEqual(frozen);
  });
});
