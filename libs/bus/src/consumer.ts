import { AckPolicy, DeliverPolicy, nanos, type JsMsg } from "nats";
import { atFrozenTime } from "@billing/clock";
import type { Logger } from "@billing/logger";
import { counter, gauge } from "@billing/telemetry";
import type { Bus } from "./connection";
import { parkMessage, replayedForAnother, type ParkReason } from "./dead-letters";
import type { Envelope } from "./envelope";
import { decodeEnvelope, ORGANIZATION_HEADER } from "./publish";
import { decideOnFailure, retryPolicyOf, type RetryOptions } from "./retry-policy";
import { backoffDelayMs } from "./backoff";
import { traced, tracedHandling } from "./tracing";

/** Each durable's backlog, sampled from its JetStream consumer info (`num_pending`, `num_ack_pending`). */
const pendingMessages = gauge(
  "nats_consumer_pending_messages",
  "Messages of the stream the durable consumer has not been delivered yet (num_pending)",
  ["stream", "durable"],
);
const ackPendingMessages = gauge(
  "nats_consumer_ack_pending_messages",
  "Messages delivered to the durable consumer and not acknowledged yet (num_ack_pending)",
  ["stream", "durable"],
);
/** What each durable did with the messages it received. */
const handledMessages = counter(
  "nats_consumer_messages_total",
  "Messages handled by a durable consumer, by outcome (acked, skipped, redelivered, parked, terminated)",
  ["stream", "durable", "outcome"],
);

/** The header JetStream puts on a message delivered without its body (headers_only): the body's size. */
const MSG_SIZE_HEADER = "Nats-Msg-Size";

/**
 * A durable consumer's settings. Its retry settings (RetryOptions: `retryDelayMs`, the backoff's
 * base; `maxRetryDelayMs`; `parkUnknownAfter`; `deadLetters`) default to its bus's
 * `consumerDefaults` (set by the runtime from CONSUMER_RETRY_BASE_MS, CONSUMER_RETRY_MAX_MS,
 * CONSUMER_PARK_UNKNOWN_AFTER and the service's `dead_letters` collection).
 */
export interface ConsumerOptions extends RetryOptions {
  bus: Bus;
  stream: string;
  durable: string;
  filterSubjects: string[];
  logger: Logger;
  handler: (envelope: Envelope, msg: JsMsg) => Promise<void>;
  /**
   * Whether the handler would do nothing with a message, known from its subject and organization
   * alone (the publisher's organization header): such a message is acknowledged without being
   * decoded. Answers from a cache: it is asked for every message. A message without the header is
   * always handled.
   */
  skip?: (subject: string, organizationId: string) => boolean | Promise<boolean>;
  /**
   * With `skip`: the durable is delivered the messages' headers only (JetStream's headers_only),
   * and a message not skipped has its body read from the stream by its sequence. For a consumer
   * that skips most of a stream's bytes (a burst of many-fee messages nobody subscribes to). Set
   * when the durable is created; a durable created before delivers bodies, which are used.
   */
  headersOnly?: boolean;
  concurrency?: number;
  ackWaitMs?: number;
  /** Messages delivered and not yet acknowledged, at most (default max(concurrency × 4, 64)); 1 with concurrency 1 handles the stream strictly in order, one message at a time across replicas. */
  maxAckPending?: number;
  /** A durable created now starts with the messages published from now on (DeliverPolicy.New), not the stream's history. */
  deliverNew?: boolean;
  /** How often the durable's lag (JetStream consumer info) is sampled for the metrics (5000 ms). */
  lagSampleMs?: number;
}

export interface ConsumerHandle {
  stop(): Promise<void>;
}

/**
 * Creates a durable pull consumer with explicit acks, or leaves the existing one as it is (a
 * durable keeps its configuration and position across restarts and replicas).
 */
export async function ensureDurable(
  bus: Bus,
  stream: string,
  options: {
    durable: string;
    filterSubjects: string[];
    ackWaitMs?: number;
    maxAckPending: number;
    deliverNew?: boolean;
    headersOnly?: boolean;
  },
): Promise<void> {
  await bus.jsm.consumers
    .add(stream, {
      durable_name: options.durable,
      ...(options.headersOnly && { headers_only: true }),
      ack_policy: AckPolicy.Explicit,
      deliver_policy: options.deliverNew ? DeliverPolicy.New : DeliverPolicy.All,
      filter_subjects: options.filterSubjects,
      ack_wait: nanos(options.ackWaitMs ?? 30_000),
      max_ack_pending: options.maxAckPending,
    })
    .catch(async (err: Error) => {
      if (!/already in use|exists/i.test(err.message)) throw err;
    });
}

/**
 * A durable consumer: explicit ack after the handler has stored its work. A failure is classified
 * (classifyFailure): a transient one (a peer away, MongoDB or NATS reconnecting, RetryLater) is
 * redelivered with exponential backoff and jitter for as long as it takes, never given up on; a
 * message that can never succeed — PoisonMessage, an undecodable body, a body gone from the stream,
 * or an unknown failure after `parkUnknownAfter` deliveries — is parked in the service's
 * dead_letters (written first; if that write fails, redelivered later) and then terminated. A
 * replayed dead letter meant for another durable is acknowledged unread. Restarts its loop on
 * errors until stopped.
 */
export async function runConsumer(options: ConsumerOptions): Promise<ConsumerHandle> {
  const { bus, stream, durable, logger } = options;
  const concurrency = options.concurrency ?? 8;
  const policy = retryPolicyOf(bus, options);
  await ensureDurable(bus, stream, {
    durable,
    filterSubjects: options.filterSubjects,
    ackWaitMs: options.ackWaitMs,
    deliverNew: options.deliverNew,
    maxAckPending: options.maxAckPending ?? Math.max(concurrency * 4, 64),
    headersOnly: options.headersOnly === true && !!options.skip,
  });
  const consumer = await bus.js.consumers.get(stream, durable);

  let stopped = false;
  let messages: Awaited<ReturnType<typeof consumer.consume>> | undefined;
  const inFlight = new Set<Promise<void>>();

  const labels = { stream, durable };
  const outcome = (name: "acked" | "skipped" | "redelivered" | "parked" | "terminated") =>
    handledMessages.inc({ ...labels, outcome: name });
  const parkTarget = { stream, durable, logger, store: policy.store };

  /** Parks the message; when its dead letter cannot be written, it comes back later instead. */
  const park = async (
    msg: JsMsg,
    what: { reason: ParkReason; error: unknown; body: Uint8Array | null; envelope?: Envelope },
  ) => {
    const done = await parkMessage(parkTarget, msg, what);
    if (done === "unstored") {
      msg.nak(backoffDelayMs(msg.info.deliveryCount, policy));
      outcome("redelivered");
    } else outcome(done);
  };

  /** Redelivers the message after the backoff's delay. */
  const redeliver = (msg: JsMsg, delay: number) => {
    msg.nak(delay);
    outcome("redelivered");
  };

  /** Handles, acks, redelivers or parks the message; answers the handler's error, if any. */
  const handleDecoded = async (msg: JsMsg, envelope: Envelope, body: Uint8Array): Promise<unknown> => {
    const log = logger.child({ subject: msg.subject, seq: msg.seq, deliveries: msg.info.deliveryCount });
    try {
      // an event of a sandbox organization is handled at the time it was produced at
      const work = () => options.handler(envelope, msg);
      await (envelope.frozen_time ? atFrozenTime(new Date(envelope.frozen_time), work) : work());
      msg.ack();
      outcome("acked");
      log.debug({ event_id: envelope.id }, "message handled");
    } catch (err) {
      const decision = decideOnFailure(err, msg.info.deliveryCount, policy);
      if ("park" in decision) await park(msg, { reason: decision.park, error: err, body, envelope });
      else {
        // a transient failure is expected while a peer is away; an unknown one is a bug until told otherwise
        const level = decision.kind === "transient" ? "warn" : "error";
        log[level](
          { err, event_id: envelope.id, failure: decision.kind, delay: decision.retryInMs },
          "message will be redelivered",
        );
        redeliver(msg, decision.retryInMs);
      }
      return err;
    }
    return undefined;
  };

  const handle = async (msg: JsMsg) => {
    // a replayed dead letter is handled by the durable it is for only
    if (replayedForAnother(msg, durable)) {
      msg.ack();
      outcome("skipped");
      return;
    }
    const organizationId = options.skip ? msg.headers?.get(ORGANIZATION_HEADER) : undefined;
    if (organizationId && (await Promise.resolve(options.skip!(msg.subject, organizationId)).catch(() => false))) {
      msg.ack();
      outcome("skipped");
      return;
    }
    let data = msg.data;
    if (data.length === 0 && msg.headers?.get(MSG_SIZE_HEADER)) {
      // delivered headers only (headersOnly): the body read from the stream; NATS away → redelivered
      try {
        data = (await bus.jsm.streams.getMessage(stream, { seq: msg.seq })).data;
      } catch (err) {
        if (/no message found/i.test(String(err))) {
          // gone from the stream meanwhile (its retention): parked, without its body, for the record
          await park(msg, { reason: "body_gone", error: err, body: null });
          return;
        }
        const decision = decideOnFailure(err, msg.info.deliveryCount, policy);
        if ("park" in decision) await park(msg, { reason: decision.park, error: err, body: null });
        else {
          logger.warn(
            { err, subject: msg.subject, seq: msg.seq, failure: decision.kind },
            "message body unreadable; will be redelivered",
          );
          redeliver(msg, decision.retryInMs);
        }
        return;
      }
    }
    let envelope: Envelope;
    try {
      envelope = decodeEnvelope(data);
    } catch (err) {
      await park(msg, { reason: "undecodable", error: err, body: data });
      return;
    }
    // tracing on: the handling continues the publisher's trace (the message's headers)
    await (traced(msg)
      ? tracedHandling(msg, envelope, durable, () => handleDecoded(msg, envelope, data))
      : handleDecoded(msg, envelope, data));
  };

  // the durable's lag, sampled for the metrics (a failed sample keeps the last value)
  const sampleLag = async () => {
    try {
      const info = await consumer.info(false);
      pendingMessages.set(labels, info.num_pending);
      ackPendingMessages.set(labels, info.num_ack_pending);
    } catch {
      // NATS away for a moment: the next sample will tell
    }
  };
  void sampleLag();
  const lagTimer = setInterval(() => void sampleLag(), options.lagSampleMs ?? 5000);
  lagTimer.unref();

  const loop = async () => {
    while (!stopped) {
      try {
        messages = await consumer.consume({ max_messages: concurrency * 2 });
        for await (const msg of messages) {
          const p = handle(msg).finally(() => inFlight.delete(p));
          inFlight.add(p);
          if (inFlight.size >= concurrency) await Promise.race(inFlight);
          if (stopped) break;
        }
      } catch (err) {
        if (!stopped) logger.warn({ err, durable }, "consumer loop restarting");
      }
      if (!stopped) await new Promise((r) => setTimeout(r, 500));
    }
  };
  const running = loop();

  return {
    stop: async () => {
      stopped = true;
      clearInterval(lagTimer);
      messages?.stop();
      await Promise.allSettled([...inFlight]);
      await running;
    },
  };
}
