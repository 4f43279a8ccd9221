import type { JsMsg } from "nats";
import type { Logger } from "@billing/logger";
import { counter } from "@billing/telemetry";
import { backoffDelayMs } from "./backoff";
import type { Bus } from "./connection";
import { ensureDurable } from "./consumer";
import { parkMessage, replayedForAnother } from "./dead-letters";
import type { Envelope } from "./envelope";
import { decodeEnvelope } from "./publish";
import { decideOnFailure, retryPolicyOf, type RetryOptions } from "./retry-policy";

const handledBatches = counter(
  "nats_consumer_batches_total",
  "Batches handled by a batch consumer, by outcome (acked, redelivered, parked)",
  ["stream", "durable", "outcome"],
);

/** A batch consumer's settings; its retry settings (RetryOptions) default to its bus's `consumerDefaults`, as runConsumer's. */
export interface BatchConsumerOptions extends RetryOptions {
  bus: Bus;
  stream: string;
  durable: string;
  filterSubjects: string[];
  logger: Logger;
  /**
   * Handles consecutive envelopes of the stream, in stream order; they are acknowledged together once
   * it resolves, or, when it resolves with the rest of the work, once that rest is done. The rest of
   * a batch runs after the rest of the batch before (rests run one at a time, in order) while the
   * next batch's handler runs: the handler's own part is a batch's ordered step (it runs batch by
   * batch), the rest its storage (it overlaps the next batch's step).
   */
  handler: (envelopes: Envelope[]) => Promise<void | (() => Promise<void>)>;
  /** Envelopes per batch at most (50); also the durable's max_ack_pending. */
  maxBatch?: number;
  /** Bytes of messages per batch at most (1 MiB), one message at least: bounds what the handler sends and receives for a batch. */
  maxBatchBytes?: number;
  ackWaitMs?: number;
  /** A durable created now starts with the messages published from now on (DeliverPolicy.New). */
  deliverNew?: boolean;
}

export interface BatchConsumerHandle {
  stop(): Promise<void>;
}

/**
 * A durable consumer handling consecutive messages in batches, in stream order: it takes whatever
 * has been delivered (up to `maxBatch` and `maxBatchBytes`, never waiting for more once one is
 * there), hands the envelopes to the handler at once and acknowledges them all after it (waiting for
 * the server's confirmation). Two batches may be in flight: while one finishes the rest of its work
 * (its storage), the next is handled (priced), so neither the handler's peer nor this process waits
 * on the other. A failure redelivers the whole batch with backoff (the handler tolerates
 * redelivery); from its third delivery a message is handled alone, so that a message that can never
 * succeed (PoisonMessage, or an unknown failure after `parkUnknownAfter` deliveries) is parked in
 * the service's dead_letters alone and the others go on; a transient failure is never parked. An
 * undecodable message is parked at once; a replayed dead letter meant for another durable is
 * acknowledged unread.
 *
 * Order across replicas: the durable's max_ack_pending is `maxBatch`, so while one replica holds a
 * full batch no other gets anything; a replica holding a partial batch may let another get the
 * next messages, and the two batches may then be handled concurrently: the handler must stay
 * exactly-once then (the pay-in-advance pricing guards every running state with a revision and
 * prices a batch again on top of one moved meanwhile).
 */
export async function runBatchConsumer(options: BatchConsumerOptions): Promise<BatchConsumerHandle> {
  const { bus, stream, durable, logger } = options;
  const maxBatch = options.maxBatch ?? 50;
  const maxBatchBytes = options.maxBatchBytes ?? 1024 * 1024;
  const policy = retryPolicyOf(bus, options);
  const parkTarget = { stream, durable, logger, store: policy.store };
  await ensureDurable(bus, stream, {
    durable,
    filterSubjects: options.filterSubjects,
    ackWaitMs: options.ackWaitMs,
    deliverNew: options.deliverNew,
    maxAckPending: maxBatch,
  });
  const consumer = await bus.js.consumers.get(stream, durable);
  const labels = { stream, durable };

  let stopped = false;
  let messages: Awaited<ReturnType<typeof consumer.consume>> | undefined;
  // delivered messages, in delivery order, until a batch takes them
  const queue: JsMsg[] = [];
  let wake: (() => void) | null = null;
  const signal = () => {
    const w = wake;
    wake = null;
    w?.();
  };

  const pump = async () => {
    while (!stopped) {
      try {
        messages = await consumer.consume({ max_messages: maxBatch });
        for await (const msg of messages) {
          queue.push(msg);
          signal();
          if (stopped) break;
        }
      } catch (err) {
        if (!stopped) logger.warn({ err, durable }, "batch consumer pull restarting");
      }
      if (!stopped) await new Promise((r) => setTimeout(r, 500));
    }
  };

  /** Parks a message; when its dead letter cannot be written, it comes back later instead. */
  const park = async (msg: JsMsg, what: Parameters<typeof parkMessage>[2]) => {
    if ((await parkMessage(parkTarget, msg, what)) === "unstored")
      msg.nak(backoffDelayMs(msg.info.deliveryCount, policy));
  };

  /**
   * One batch: the handler at once, its rest after `before` (the batch before it) has settled, then
   * the acknowledgement. `stepped` settles once the handler's own part has; `settled` once the batch
   * is acknowledged or handed back (never rejects). A failure hands back this batch only: the batches
   * after it go on (the handler is exactly-once whatever the order, see above).
   */
  const startBatch = (batch: JsMsg[], before: Promise<void>) => {
    const envelopes: Envelope[] = [];
    const kept: JsMsg[] = [];
    // parked messages' dead letters being written (an undecodable one; a replay for another durable is acknowledged)
    const parking: Array<Promise<void>> = [];
    for (const msg of batch) {
      if (replayedForAnother(msg, durable)) {
        msg.ack();
        continue;
      }
      try {
        envelopes.push(decodeEnvelope(msg.data));
        kept.push(msg);
      } catch (err) {
        parking.push(park(msg, { reason: "undecodable", error: err, body: msg.data }));
      }
    }
    if (kept.length === 0)
      return { stepped: Promise.resolve(), settled: Promise.all([before, ...parking]).then(() => undefined) };
    const step = options.handler(envelopes);
    const settled = (async () => {
      try {
        const rest = await step;
        await before;
        if (rest) await rest();
        await Promise.all(kept.map((m) => m.ackAck().catch(() => false)));
        handledBatches.inc({ ...labels, outcome: "acked" });
      } catch (err) {
        // a message is parked only when handled alone (see the loop): the others of its batch go on
        const decisions = kept.map((msg) => decideOnFailure(err, msg.info.deliveryCount, policy));
        const first = decisions[0]!;
        if (kept.length === 1 && "park" in first) {
          await park(kept[0]!, { reason: first.park, error: err, body: kept[0]!.data, envelope: envelopes[0] });
          handledBatches.inc({ ...labels, outcome: "parked" });
        } else {
          const level = first.kind === "transient" ? "warn" : "error";
          logger[level]({ err, durable, messages: kept.length, failure: first.kind }, "batch will be redelivered");
          kept.forEach((msg, i) => {
            const decision = decisions[i]!;
            msg.nak("retryInMs" in decision ? decision.retryInMs : backoffDelayMs(msg.info.deliveryCount, policy));
          });
          handledBatches.inc({ ...labels, outcome: "redelivered" });
        }
      }
      await Promise.all(parking);
    })();
    return {
      stepped: step.then(
        () => undefined,
        () => undefined,
      ),
      settled,
    };
  };

  // the latest batch started, and the one before it: at most two in flight (one in its step, the one
  // before finishing its rest)
  let last: Promise<void> = Promise.resolve();
  let beforeLast: Promise<void> = Promise.resolve();
  const loop = async () => {
    while (!stopped) {
      if (queue.length === 0) {
        await new Promise<void>((r) => {
          wake = r;
        });
        continue;
      }
      await beforeLast;
      if (queue.length === 0) continue;
      // a batch that failed twice comes again one message at a time: a poison message is found alone
      const most = queue[0]!.info.deliveryCount > 2 ? 1 : maxBatch;
      let take = 1;
      let bytes = queue[0]!.data.length;
      while (take < Math.min(most, queue.length) && bytes + queue[take]!.data.length <= maxBatchBytes)
        bytes += queue[take++]!.data.length;
      const { stepped, settled } = startBatch(queue.splice(0, take), last);
      beforeLast = last;
      last = settled;
      await stepped;
    }
    await last;
  };
  const pumping = pump();
  const running = loop();

  return {
    stop: async () => {
      stopped = true;
      messages?.stop();
      signal();
      await running;
      await pumping;
    },
  };
}
