import { describe, expect, it } from "vitest";
import { envelopeSchema, Subjects } from "@billing/bus";
import { eventData, eventIngestedData } from "@billing/contracts";
import type { EventView, IngestRecord } from "../domain/stored-event";
import { ingestedEnvelopes } from "./ingested-envelopes";

function record(org: string, batch: string, n: number, fields: Partial<EventView> = {}): IngestRecord {
  const view: EventView = {
    svc_id: `ev_${n}`,
    transaction_id: `tx_${n}`,
    svc_customer_id: null,
    svc_subscription_id: null,
    external_subscription_id: "sub_1",
    code: "calls",
    timestamp: "2026-01-15T10:00:00.000Z",
    properties: { n },
    precise_total_amount_cents: null,
    created_at: "2026-01-15T10:00:01.000Z",
    ...fields,
  };
  return {
    org,
    sub: "sub_1",
    x: view.transaction_id,
    code: "calls",
    t: Date.parse(view.timestamp),
    properties: view.properties,
    raw: JSON.stringify(view),
    s: n,
    batch,
  };
}

describe("billing.usage.event.ingested envelopes", () => {
  it("are built by joining the stored texts, and still read as the contract's schema says", () => {
    const records = [record("org_a", "b1", 1), record("org_a", "b1", 2), record("org_b", "b1", 3)];
    const envelopes = ingestedEnvelopes(records, new Date("2026-01-15T10:00:02Z"));
    expect(envelopes).toHaveLength(2); // one per organization of the batch
    // each names its organization (published in the organization header: consumers skip undecoded)
    expect(envelopes.map((e) => [e.organizationId, JSON.parse(e.text).organization_id])).toEqual([
      ["org_a", "org_a"],
      ["org_b", "org_b"],
    ]);
    const parsed = envelopes.map((e) => envelopeSchema.parse(JSON.parse(e.text)));
    const first = parsed.find((e) => e.organization_id === "org_a")!;
    expect(first.type).toBe(Subjects.usage.eventIngested);
    const data = eventData(first as typeof first & { type: typeof Subjects.usage.eventIngested });
    expect(data.batch_id).toBe("b1");
    expect(data.events.map((e) => e.transaction_id)).toEqual(["tx_1", "tx_2"]);
    expect(data.events[0]).toMatchObject({
      external_subscription_id: "sub_1",
      code: "calls",
      properties: { n: 1 },
      precise_total_amount_cents: null,
    });
  });

  it("hold, chunked by 1000, every stored event exactly as the contract's eventIngestedData reads it", () => {
    const tricky = { 'quote"d': "a\\b\n", "a.b": 2.5, $c: ["é", null, { deep: true }] };
    const records = Array.from({ length: 1001 }, (_, i) =>
      record(
        "org_a",
        "b2",
        i,
        i === 1000 ? { properties: tricky, precise_total_amount_cents: "12.5", transaction_id: 'tx "last"' } : {},
      ),
    );
    const envelopes = ingestedEnvelopes(records, new Date("2026-01-15T10:00:02Z"));
    expect(envelopes).toHaveLength(2);
    const events = envelopes.flatMap((e) => eventIngestedData.parse(JSON.parse(e.text).data).events);
    expect(events).toEqual(
      records.map((r) => JSON.parse(r.raw)).map(({ svc_customer_id, svc_subscription_id, ...view }) => view),
    );
    expect(events[1000]).toMatchObject({
      transaction_id: 'tx "last"',
      properties: tricky,
      precise_total_amount_cents: "12.5",
    });
  });

  it("derive their ids from the batch, so a redelivered batch publishes nothing new", () => {
    const a = ingestedEnvelopes([record("org_a", "b9", 1)], new Date());
    const b = ingestedEnvelopes([record("org_a", "b9", 1)], new Date(Date.now() + 5000));
    expect(a[0]!.id).toBe(b[0]!.id);
  });
});
