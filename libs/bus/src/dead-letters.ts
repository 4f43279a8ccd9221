import { randomUUID } from "node:crypto";
import { headers as natsHeaders, type JetStreamClient, type JsMsg } from "nats";
import type { Logger } from "@billing/logger";
import { counter } from "@billing/telemetry";
import { derivedUuid } from "./derived-id";
import type { Envelope } from "./envelope";
import { ORGANIZATION_HEADER } from "./publish";

/**
 * Dead letters: a message that can never succeed is parked — written, with its raw body, to the
 * consuming service's `dead_letters` collection — before it is terminated, so that nothing a
 * consumer gives up on is lost: an operator lists it and replays it once the cause is fixed
 * (`npm run dead-letters`). Transient failures are never parked (they are redelivered with backoff
 * for as long as it takes).
 */

/**
 * Why a message was parked: its handler refused it for good (`poison`: PoisonMessage, a body its
 * contract refuses), its body is no envelope (`undecodable`), its body left the stream before it
 * could be read (`body_gone`, headers-only durables), or its handler kept failing for a reason
 * nobody classified (`unknown_error_after_<N>` deliveries).
 */
export type ParkReason = "poison" | "undecodable" | "body_gone" | `unknown_error_after_${number}`;

/** On a replayed message: the only durable that handles it (the others on its subject acknowledge it unread). */
export const REPLAY_FOR_HEADER = "Billing-Replay-For";
/** On a replayed message: the dead letter it replays (parked again, it updates that record). */
export const DEAD_LETTER_HEADER = "Billing-Dead-Letter";

/** A message header as stored (an array: a header may repeat, and a name may hold a `.`). */
export interface StoredHeader {
  key: string;
  value: string;
}

/** What a consumer parks. */
export interface ParkedMessage {
  /** The record's id: derived from the stream, the durable and the stream sequence (a redelivery parks the same record). */
  id: string;
  stream: string;
  durable: string;
  subject: string;
  streamSeq: number;
  envelopeId: string | null;
  organizationId: string | null;
  /** The raw body as delivered (null: gone from the stream). */
  body: Uint8Array | null;
  /** The headers a replay needs (the organization header, trace context, …), without JetStream's own (`Nats-*`) and the replay headers. */
  headers: StoredHeader[];
  reason: ParkReason;
  error: string | null;
  deliveries: number;
  parkedAt: Date;
  /** The dead letter this message replays (its DEAD_LETTER_HEADER), if it is a replay. */
  replayOf: string | null;
}

/** A parked message as stored and listed (the `dead_letters` document, `_id` as `id`). */
export interface DeadLetter {
  id: string;
  stream: string;
  durable: string;
  subject: string;
  stream_seq: number;
  envelope_id: string | null;
  organization_id: string | null;
  /** The body as text (`utf8`) or, when it is not UTF-8, in base64; null when it was gone from the stream. */
  body: string | null;
  body_encoding: "utf8" | "base64" | null;
  headers: StoredHeader[];
  reason: string;
  error: string | null;
  deliveries: number;
  /** Times it was parked: 1, plus one for each replay that failed again. */
  parks: number;
  first_parked_at: Date;
  parked_at: Date;
  status: "parked" | "replayed";
  replayed_at: Date | null;
  replay_count: number;
}

/** Where a service's consumers park messages (`@billing/mongo`'s MongoDeadLetterStore: the service's own `dead_letters` collection). */
export interface DeadLetterStore {
  /**
   * Writes the parked message once: a redelivery of a message already parked finds its record, a
   * replayed message parked again updates the record it replays (parked again, `parks` + 1).
   * Answers whether this call parked it (counted in `dead_letters_total`); throws when it could not
   * write (the consumer then redelivers the message later instead of dropping it).
   */
  park(message: ParkedMessage): Promise<boolean>;
}

const deadLetters = counter(
  "dead_letters_total",
  "Messages parked in the service's dead_letters collection, by subject and reason",
  ["subject", "reason"],
);

/** The id of the dead letter of a message of a durable (the same for every delivery of it). */
export function deadLetterId(stream: string, durable: string, streamSeq: number): string {
  return derivedUuid(`dead letter|${stream}|${durable}|${streamSeq}`);
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** A body as stored: text when it is UTF-8 (an envelope always is), base64 otherwise. */
export function storedBody(body: Uint8Array | null): { body: string | null; body_encoding: "utf8" | "base64" | null } {
  if (body === null) return { body: null, body_encoding: null };
  try {
    return { body: utf8.decode(body), body_encoding: "utf8" };
  } catch {
    return { body: Buffer.from(body).toString("base64"), body_encoding: "base64" };
  }
}

/** A stored body's bytes again. */
export function bodyBytes(letter: Pick<DeadLetter, "body" | "body_encoding">): Uint8Array | null {
  if (letter.body === null) return null;
  return letter.body_encoding === "base64"
    ? new Uint8Array(Buffer.from(letter.body, "base64"))
    : new TextEncoder().encode(letter.body);
}

/** A message's headers worth keeping for a replay. */
function replayableHeaders(msg: JsMsg): StoredHeader[] {
  const kept: StoredHeader[] = [];
  for (const key of msg.headers?.keys() ?? []) {
    if (/^nats-/i.test(key) || key === REPLAY_FOR_HEADER || key === DEAD_LETTER_HEADER) continue;
    for (const value of msg.headers!.values(key)) kept.push({ key, value });
  }
  return kept;
}

function errorText(err: unknown): string | null {
  if (err === undefined || err === null) return null;
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
}

/** What a consumer knows when it parks a message. */
export interface ParkTarget {
  stream: string;
  durable: string;
  logger: Logger;
  /** Absent: the message is terminated and only logged (a bus made outside `runService`, without a store). */
  store: DeadLetterStore | undefined;
}

/**
 * Parks a message: written to the dead-letter store, then terminated. Answers `parked` (or
 * `terminated` without a store); `unstored` when the write failed, and then the message is left to
 * the caller, which redelivers it later (a message is never dropped because its dead letter could
 * not be written).
 */
export async function parkMessage(
  target: ParkTarget,
  msg: JsMsg,
  what: { reason: ParkReason; error: unknown; body: Uint8Array | null; envelope?: Envelope | null },
): Promise<"parked" | "terminated" | "unstored"> {
  const log = target.logger.child({
    subject: msg.subject,
    seq: msg.seq,
    deliveries: msg.info.deliveryCount,
    reason: what.reason,
    event_id: what.envelope?.id,
  });
  if (!target.store) {
    log.error({ err: what.error }, "message terminated (no dead-letter store)");
    msg.term();
    return "terminated";
  }
  const parked: ParkedMessage = {
    id: deadLetterId(target.stream, target.durable, msg.seq),
    stream: target.stream,
    durable: target.durable,
    subject: msg.subject,
    streamSeq: msg.seq,
    envelopeId: what.envelope?.id ?? null,
    organizationId: what.envelope?.organization_id ?? msg.headers?.get(ORGANIZATION_HEADER) ?? null,
    body: what.body,
    headers: replayableHeaders(msg),
    reason: what.reason,
    error: errorText(what.error),
    deliveries: msg.info.deliveryCount,
    // operations time (the wall clock), never a sandbox organization's frozen time
    parkedAt: new Date(),
    replayOf: msg.headers?.get(DEAD_LETTER_HEADER) || null,
  };
  try {
    if (await target.store.park(parked)) deadLetters.inc({ subject: msg.subject, reason: what.reason });
  } catch (err) {
    log.error({ err, cause: what.error }, "dead letter not written; the message will be redelivered");
    return "unstored";
  }
  log.error({ err: what.error, dead_letter_id: parked.id }, "message parked in dead_letters");
  msg.term();
  return "parked";
}

/** Whether a message is a replay meant for another durable (its REPLAY_FOR_HEADER names another): acknowledged unread. */
export function replayedForAnother(msg: JsMsg, durable: string): boolean {
  const to = msg.headers?.get(REPLAY_FOR_HEADER);
  return !!to && to !== durable;
}

/**
 * Publishes a dead letter's body again on its subject, into its stream, with a fresh message id
 * (outside the duplicate window's memory of the original) and headers naming the durable it is
 * for (the only one that handles it: every other durable on the subject acknowledges it unread)
 * and the dead letter it replays. Every consumer tolerates redelivery, so a replay is safe.
 */
export async function replayDeadLetter(js: JetStreamClient, letter: DeadLetter): Promise<{ seq: number }> {
  const body = bodyBytes(letter);
  if (body === null) throw new Error(`dead letter ${letter.id} has no body (${letter.reason}): nothing to replay`);
  const h = natsHeaders();
  for (const { key, value } of letter.headers) h.append(key, value);
  h.set(REPLAY_FOR_HEADER, letter.durable);
  h.set(DEAD_LETTER_HEADER, letter.id);
  const ack = await js.publish(letter.subject, body, {
    msgID: randomUUID(),
    headers: h,
    expect: { streamName: letter.stream },
  });
  return { seq: ack.seq };
}
