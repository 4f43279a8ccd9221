import { describe, expect, it } from "vitest";
import { mongo } from "mongoose";
import { eventText } from "../../domain/ingest-message";
import type { EventView, IngestRecord } from "../../domain/stored-event";
import { pageDoc } from "../store/bucket-writes";
import { rawPage, scanPage, type PageEvent } from "./page-scan";

const line = (n: number, extra: Partial<Parameters<typeof eventText>[0]> = {}) => ({
  svcId: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
  transactionId: `tx_${n}`,
  externalSubscriptionId: "sub_1",
  code: "calls",
  timestamp: new Date(Date.UTC(2024, 0, 1, 10, n)).toISOString(),
  propertiesJson: `{"n":${n}}`,
  preciseTotalAmountCents: null,
  createdAt: "2024-01-02T00:00:00.000Z",
  ...extra,
});

const record = (text: string, s: number, i?: number): IngestRecord => ({
  org: "o",
  sub: "sub_1",
  x: "",
  code: "calls",
  t: 0,
  properties: {},
  raw: text,
  s,
  batch: `b${s}`,
  ...(i === undefined ? {} : { i }),
});

const scanned = (text: string | Uint8Array) => {
  const out: PageEvent[] = [];
  scanPage(text, (e) => out.push(e));
  return out;
};

describe("event pages read without parsing them whole", () => {
  it("reads what JSON.parse reads, however the strings and properties are written, with each event's message and position", () => {
    const texts = [
      eventText(line(1)),
      eventText(
        line(2, {
          transactionId: 'a "quoted\\" id\\\\',
          propertiesJson: '{"nested":{"a":[1,{"b":"}]"}]},"s":"x\\"}"}',
          preciseTotalAmountCents: "12.5",
        }),
      ),
      eventText(line(3, { externalSubscriptionId: 'sub "1"', code: "cödé", propertiesJson: null })),
      // written by something else: other key order, spaces
      JSON.stringify(
        {
          created_at: "2024-01-03T00:00:00.000Z",
          properties: { m: "card" },
          timestamp: "2024-01-01T10:04:00.000Z",
          transaction_id: "tx_4",
          svc_id: "s4",
          svc_customer_id: null,
          svc_subscription_id: null,
          code: "calls",
          external_subscription_id: "sub_1",
          precise_total_amount_cents: null,
        },
        null,
        1,
      ),
    ];
    const doc = pageDoc({
      events: [record(texts[0]!, 7, 3), record(texts[1]!, 7, 0), record(texts[2]!, 9, 5), record(texts[3]!, 9, 6)],
      page: { id: "p", range: "7-9" },
    });
    const events = scanned(doc.e);
    const parsed = texts.map((t) => JSON.parse(t) as EventView);
    expect(events.map((e) => e.view())).toEqual(parsed.map((p) => ({ ...p, properties: p.properties ?? {} })));
    expect(
      events.map((e) => [e.seq, e.pos, e.timestamp, e.created, e.transaction_id, e.precise_total_amount_cents]),
    ).toEqual(
      parsed.map((p, k) => [
        k < 2 ? 7 : 9,
        [3, 0, 5, 6][k],
        Date.parse(p.timestamp),
        Date.parse(p.created_at),
        p.transaction_id,
        p.precise_total_amount_cents,
      ]),
    );
  });

  it("reads pages written before positions were kept (position -1) and empty pages", () => {
    const old = JSON.stringify([
      [4, [JSON.parse(eventText(line(1)))]],
      [5, [JSON.parse(eventText(line(2))), JSON.parse(eventText(line(3)))]],
    ]);
    expect(scanned(old).map((e) => [e.seq, e.pos, e.transaction_id, e.properties])).toEqual([
      [4, -1, "tx_1", { n: 1 }],
      [5, -1, "tx_2", { n: 2 }],
      [5, -1, "tx_3", { n: 3 }],
    ]);
    expect(scanned("[]")).toEqual([]);
    expect(() => scanned("[[1,[{")).toThrow(SyntaxError);
  });

  it("takes a page document's _id and text bytes from its raw BSON, non-ASCII text included", () => {
    const text = JSON.stringify([
      [3, [JSON.parse(eventText(line(1, { transactionId: "café ☕", propertiesJson: '{"ville":"Zürich"}' })))]],
    ]);
    const page = rawPage(Buffer.from(mongo.BSON.serialize({ _id: "bucket|3-3", e: text })));
    expect(page.id).toBe("bucket|3-3");
    expect(Buffer.from(page.e).toString("utf8")).toBe(text);
    expect(scanned(page.e).map((e) => [e.transaction_id, e.properties])).toEqual([["café ☕", { ville: "Zürich" }]]);
  });
});
