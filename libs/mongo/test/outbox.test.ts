import { Schema, type Connection } from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectBus, ensureStream, makeEnvelope, publishFromOutbox, type Bus, type Envelope } from "@billing/bus";
import { silentLogger } from "@billing/logger";
import { connectMongo, docModel, embeddedOutboxStore, type DocModel } from "@billing/mongo";
import { infraUrls, uniqueName, dropTestDatabase } from "@billing/testkit";

// The embedded outbox against the real servers: a change's events leave its document once JetStream has them.
const stream = uniqueName("outbox").toUpperCase();
const subjectRoot = `billing.${stream.toLowerCase()}`;
let conn: Connection;
let bus: Bus;
interface ThingDoc {
  _id: string;
  name: string;
  outbox: Envelope[];
}
let thingModel: DocModel<ThingDoc>;

beforeAll(async () => {
  conn = await connectMongo({ url: infraUrls().mongoUrl, dbName: uniqueName("outbox") });
  thingModel = docModel(
    conn,
    "Thing",
    new Schema<ThingDoc>({ _id: String, name: String, outbox: [Schema.Types.Mixed] }, { versionKey: false }),
  );
  bus = await connectBus({ url: infraUrls().natsUrl, name: "outbox-test" });
  await ensureStream(bus.jsm, { name: stream, subjects: [`${subjectRoot}.>`] });
});

afterAll(async () => {
  await bus.jsm.streams.delete(stream).catch(() => undefined);
  await bus.close();
  await dropTestDatabase(conn);
  await conn.close();
});

const things = () => thingModel;
const event = (subject: string, n: number): Envelope =>
  makeEnvelope({ type: subject, organizationId: "org-1", data: { n }, occurredAt: new Date() });

async function streamed(subject: string): Promise<number[]> {
  const consumer = await bus.js.consumers.get(stream, { filterSubjects: [subject] });
  const out: number[] = [];
  for (;;) {
    const msg = await consumer.next({ expires: 1000 });
    if (!msg) return out;
    out.push((msg.json() as Envelope<{ n: number }>).data.n);
  }
}

describe("embedded outbox", () => {
  it("publishes a document's events in their order and clears them in one write", async () => {
    const subject = `${subjectRoot}.ordered.created`;
    const events = Array.from({ length: 40 }, (_, n) => event(subject, n));
    await things().collection.insertOne({ _id: "t1", name: "one", outbox: events });
    await publishFromOutbox(bus, embeddedOutboxStore(things()), "t1", events, silentLogger);
    expect((await things().findById("t1").lean<ThingDoc>())!.outbox).toEqual([]);
    expect(await streamed(subject)).toEqual(events.map((_, n) => n));
  });

  it("leaves what JetStream did not take for the relay, and clears the rest", async () => {
    const ok = event(`${subjectRoot}.kept.created`, 1);
    const nowhere = event(`billing.nostream_${stream.toLowerCase()}.created`, 2); // no stream listens: refused
    await things().collection.insertOne({ _id: "t2", name: "two", outbox: [ok, nowhere] });
    const store = embeddedOutboxStore(things());
    await publishFromOutbox(bus, store, "t2", [ok, nowhere], silentLogger);
    expect((await things().findById("t2").lean<ThingDoc>())!.outbox.map((e) => e.id)).toEqual([nowhere.id]);
    expect((await store.pending(10)).map((p) => p.envelope.id)).toContain(nowhere.id);
  });
});
