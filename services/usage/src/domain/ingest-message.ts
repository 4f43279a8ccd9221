import type { IngestRecord, PageEvent } from "./stored-event";

/**
 * The JetStream ingest message: a header line, then one line per ingest request
 * `{"o": organization, "r": created_at ms, "e": [events]}`. Requests are encoded once, when they
 * arrive, and a group commit only joins lines: nothing is re-serialized per flush.
 */
export interface EventLine {
  svcId: string;
  transactionId: string;
  externalSubscriptionId: string;
  code: string;
  timestampMs: number;
  /** a JSON object's text (already validated) or null */
  propertiesJson: string | null;
  preciseTotalAmountCents: string | null;
}

const str = JSON.stringify;

export function encodeRequestLine(organizationId: string, createdMs: number, events: readonly EventLine[]): string {
  let out = `{"o":${str(organizationId)},"r":${createdMs},"e":[`;
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    if (i > 0) out += ",";
    out += `{"i":${str(e.svcId)},"x":${str(e.transactionId)},"s":${str(e.externalSubscriptionId)},"c":${str(e.code)},"t":${e.timestampMs},"p":${e.propertiesJson ?? "null"},"a":${e.preciseTotalAmountCents === null ? "null" : str(e.preciseTotalAmountCents)}}`;
  }
  return `${out}]}`;
}

export function encodeMessage(batchId: string, requestLines: readonly string[]): string {
  return `{"b":${str(batchId)}}\n${requestLines.join("\n")}`;
}

interface WireEvent {
  i: string;
  x: string;
  s: string;
  c: string;
  t: number;
  p: Record<string, unknown> | null;
  a: string | null;
}

/** The events of one ingest message, in the order they were acknowledged. */
export function decodeMessage(text: string, seq: number): { batch: string; events: IngestRecord[] } {
  const lines = text.split("\n");
  const batch = (JSON.parse(lines[0]!) as { b: string }).b;
  const events: IngestRecord[] = [];
  for (let l = 1; l < lines.length; l++) {
    const request = JSON.parse(lines[l]!) as { o: string; r: number; e: WireEvent[] };
    for (const w of request.e) {
      events.push({ i: w.i, x: w.x, t: w.t, p: w.p, a: w.a, r: request.r, s: seq, org: request.o, sub: w.s, code: w.c, batch });
    }
  }
  return { batch, events };
}

/** The page form of an event (its bucket carries organization, subscription and code). */
export const pageEvent = (e: IngestRecord): PageEvent => ({ i: e.i, x: e.x, t: e.t, p: e.p, a: e.a, r: e.r, s: e.s });
