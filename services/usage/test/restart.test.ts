import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Streams, Subjects } from "@billing/bus";
import { ingestSubject } from "../src/use-cases/ingest/ingest-stream";
import {
  decodeMessage,
  encodeMessage,
  encodeRequestLines,
  eventText,
  type EventLine,
} from "../src/domain/ingest-message";
import type { IngestRecord } from "../src/domain/stored-event";
import { applyBuckets } from "../src/use-cases/store/apply-buckets";
import { applyUnit } from "../src/use-cases/store/apply-unit";
import { storeKeys } from "../src/use-cases/store/store-keys";
import { startUsageHarness, type IngestRefused, type UsageHarness } from "./usage-harness";

let h: UsageHarness;
const MAY = { from: "2026-05-01T00:00:00Z", to: "2026-06-01T00:00:00Z" };
const base = Date.parse("2026-05-10T00:00:00Z");

beforeAll(async () => {
  h = await startUsageHarness("usage_restart");
});

afterAll(async () => {
  await h?.close();
});

/** n events of one subscription, spread over three hours, value i. */
function lines(prefix: string, n: number, sub = "sub_1"): EventLine[] {
  return Array.from({ length: n }, (_, i) => ({
    svcId: randomUUID(),
    transactionId: `${prefix}-${i}`,
    externalSubscriptionId: sub,
    code: "gb",
    timestamp: new Date(base + (i % 3) * 3_600_000 + i).toISOString(),
    propertiesJson: JSON.stringify({ v: i }),
    preciseTotalAmountCents: null,
    createdAt: new Date().toISOString(),
  }));
}

/** Publishes ingest messages as the group commit would; returns their records as the store reads them. */
async function publishMessages(
  org: string,
  batches: EventLine[][],
): Promise<{ records: IngestRecord[]; lastSeq: number }> {
  const records: IngestRecord[] = [];
  let lastSeq = 0;
  for (const batch of batches) {
    const text = encodeMessage(randomUUID(), [encodeRequestLines(org, batch.map(eventText))]);
    const ack = await h.bus.js.publish(ingestSubject(h.prefix), Buffer.from(text));
    records.push(...decodeMessage(text, ack.seq).events);
    lastSeq = ack.seq;
  }
  return { records, lastSeq };
}

async function usage(org: string) {
  const agg = await h.aggregate({ organization_id: org, external_subscription_id: "sub_1", code: "gb", ...MAY });
  const events = await h.parts.reader.events({
    organizationId: org,
    externalSubscriptionId: "sub_1",
    code: "gb",
    from: new Date(MAY.from),
    to: new Date(MAY.to),
  });
  const keys = await h.collections.events.countDocuments({ _id: { $regex: `^\\["${org}"` } });
  return {
    units: agg.units,
    count: agg.events_count,
    events: events.length,
    distinct: new Set(events.map((e) => e.transaction_id)).size,
    keys,
  };
}

/** The `ingested` envelopes of an organization stored in the usage stream since `since`. */
async function ingestedTransactions(org: string, since: Date) {
  const consumer = await h.bus.js.consumers.get(Streams.usage.name, {
    filterSubjects: [Subjects.usage.eventIngested],
    opt_start_time: since.toISOString(),
  });
  const last = (await h.bus.jsm.streams.info(Streams.usage.name)).state.last_seq;
  const txs: string[] = [];
  let envelopes = 0;
  for (;;) {
    const msg = await consumer.next({ expires: 1000 });
    if (!msg) break;
    const envelope = msg.json<{ organization_id: string; data: { events: { transaction_id: string }[] } }>();
    if (envelope.organization_id === org) (envelopes++, txs.push(...envelope.data.events.map((e) => e.transaction_id)));
    if (msg.seq >= last) break;
  }
  return { envelopes, events: txs.length, distinct: new Set(txs).size };
}

const sumTo = (n: number) => String((n * (n - 1)) / 2);

describe("storage across restarts", () => {
  it("stores the ingest backlog before serving again, and refuses its duplicates at once", async () => {
    const org = randomUUID();
    h.copies.addMetric(org, { code: "gb", aggregation_type: "sum_agg", field_name: "v" });
    await h.parts.stop();
    await publishMessages(org, [lines("a", 50), lines("b", 50)]);
    await h.restart();
    expect(await usage(org)).toEqual({
      units: String(2 * Number(sumTo(50))),
      count: 100,
      events: 100,
      distinct: 100,
      keys: 100,
    });
    const again = await h
      .ingest(org, [{ transaction_id: "a-7", external_subscription_id: "sub_1", code: "gb" }])
      .catch((e: IngestRefused) => e.details);
    expect(again).toEqual({ "0": { transaction_id: ["value_already_exist"] } });
  });

  it("stores each event once when a crash interrupted storing at any step", async () => {
    const org = randomUUID();
    const started = new Date();
    h.copies.addMetric(org, { code: "gb", aggregation_type: "sum_agg", field_name: "v" });
    await h.parts.stop();
    const m1 = await publishMessages(org, [lines("k", 40)]);
    const m2 = await publishMessages(org, [lines("u", 40)]);
    const m3 = await publishMessages(org, [lines("p", 40)]);
    const m4 = await publishMessages(org, [lines("q", 40)]);
    const fieldOf = () => "v";
    const deps = {
      collections: h.collections,
      bus: h.bus,
      clock: { now: () => new Date() },
      fieldOf,
      onStored: () => undefined,
    };
    // message 1: keys stored, nothing else
    await storeKeys(h.collections.events, m1.records);
    // messages 1-2 as one unit: stored completely, cursor not advanced
    await applyUnit(deps, [...m1.records, ...m2.records], m2.lastSeq);
    // message 3: keys and some of its buckets
    const { kept } = await storeKeys(h.collections.events, m3.records);
    await applyBuckets(
      h.collections,
      kept.map((k) => k.record).filter((r) => r.t < base + 3_600_000),
      m3.lastSeq,
      fieldOf,
    );
    // message 4 was never touched; the restart drains 1-4
    await h.restart();
    expect(await usage(org)).toEqual({
      units: String(4 * Number(sumTo(40))),
      count: 160,
      events: 160,
      distinct: 160,
      keys: 160,
    });
    expect(m4.lastSeq).toBeGreaterThan(m3.lastSeq);
    // billing.usage.event.ingested: every event published once (ids derived from the batch)
    expect(await ingestedTransactions(org, started)).toEqual({ envelopes: 4, events: 160, distinct: 160 });
  });

  it("refuses after a restart what was acknowledged before it", async () => {
    const org = randomUUID();
    h.copies.addMetric(org, { code: "gb", aggregation_type: "sum_agg", field_name: "v" });
    const sent = Array.from({ length: 20 }, (_, i) => ({
      transaction_id: `r-${i}`,
      external_subscription_id: "sub_1",
      code: "gb",
      timestamp_ms: base,
      properties_json: `{"v":${i}}`,
    }));
    await h.ingest(org, sent);
    await h.restart();
    const refused = await h.ingest(org, sent.slice(5, 7)).catch((e: IngestRefused) => e.details);
    expect(refused).toEqual({
      "0": { transaction_id: ["value_already_exist"] },
      "1": { transaction_id: ["value_already_exist"] },
    });
    expect(await usage(org)).toEqual({ units: sumTo(20), count: 20, events: 20, distinct: 20, keys: 20 });
  });

  it("drops a true duplicate that reached the stream (it was stored from an earlier message)", async () => {
    const org = randomUUID();
    h.copies.addMetric(org, { code: "gb", aggregation_type: "sum_agg", field_name: "v" });
    const first = lines("d", 10);
    await h.parts.stop();
    await publishMessages(org, [
      first,
      [{ ...first[3]!, svcId: randomUUID(), propertiesJson: '{"v":1000}' }],
      first.slice(0, 2),
    ]);
    await h.restart();
    expect(await usage(org)).toEqual({ units: sumTo(10), count: 10, events: 10, distinct: 10, keys: 10 });
  });
});
