import { describe, expect, it } from "vitest";
import { decodeMessage, encodeMessage, encodeRequestLines, eventText, type EventLine } from "./ingest-message";

const line = (tx: string, properties: string | null): EventLine => ({
  svcId: "5b0b1a52-9a0e-4a39-8d0a-5f0a3c3f7a11",
  transactionId: tx,
  externalSubscriptionId: "sub\n1",
  code: 'c"1',
  timestamp: "2026-05-10T12:00:00.123Z",
  propertiesJson: properties,
  preciseTotalAmountCents: null,
  createdAt: "2026-05-10T12:00:01.000Z",
});

describe("ingest message", () => {
  it("carries each request's events as their stored JSON, whatever characters the ids hold", () => {
    const text = encodeMessage("batch-1", [
      encodeRequestLines("org-a", [line("t\n1", '{"a.b":1,"$c":"x\\ny"}'), line("t2", null)].map(eventText)),
      encodeRequestLines("org-b", [line("@t3", "{}")].map(eventText)),
    ]);
    const { batch, events } = decodeMessage(text, 7);
    expect(batch).toBe("batch-1");
    expect(events.map((e) => [e.org, e.sub, e.x, e.code, e.t, e.properties, e.s])).toEqual([
      ["org-a", "sub\n1", "t\n1", 'c"1', Date.parse("2026-05-10T12:00:00.123Z"), { "a.b": 1, $c: "x\ny" }, 7],
      ["org-a", "sub\n1", "t2", 'c"1', Date.parse("2026-05-10T12:00:00.123Z"), {}, 7],
      ["org-b", "sub\n1", "@t3", 'c"1', Date.parse("2026-05-10T12:00:00.123Z"), {}, 7],
    ]);
    expect(JSON.parse(events[0]!.raw)).toMatchObject({
      transaction_id: "t\n1",
      properties: { "a.b": 1, $c: "x\ny" },
      precise_total_amount_cents: null,
    });
  });
});
