import { publishFromOutbox, runConsumer, Streams, type Bus, type ConsumerHandle, type OutboxStore } from "@billing/bus";
import type { Logger } from "@billing/logger";
import type { Connection } from "mongoose";
import { REFUND_SUBJECTS, refundRequestedHandler } from "./events/refund-requested";
import type { CreditNotes } from "./peers/credit-notes";
import { RefundRepository, registerRefundModel } from "./persistence/refund-repository";
import type { PaymentDeps } from "./use-cases/deps";
import type { RefundDeps } from "./use-cases/refunds/deps";
import { refundOverpayment } from "./use-cases/refunds/refund-overpayment";

export interface RefundWiring {
  deps: RefundDeps;
  /** The refunds' embedded outbox, whose leftovers a relay republishes. */
  outbox: OutboxStore;
}

/** Credit notes' refunds beside the payments (same connection, providers and peers); their events published from their outbox (without a bus they wait there). */
export function wireRefunds(
  connection: Connection,
  payment: PaymentDeps,
  parts: { creditNotes: CreditNotes; bus?: { bus: Bus; logger: Logger } },
): RefundWiring {
  const refunds = new RefundRepository(registerRefundModel(connection));
  const outbox = refunds.outbox();
  const deps: RefundDeps = {
    ...payment,
    refunds,
    creditNotes: parts.creditNotes,
    publishRefund: async (id, events) => {
      if (parts.bus && events.length > 0) await publishFromOutbox(parts.bus.bus, outbox, id, events, parts.bus.logger);
    },
  };
  // an overpayment a payment records is given back through this side's refunds
  payment.giveBack = async (overpaid) => void (await refundOverpayment(deps, overpaid));
  return { deps, outbox };
}

/** The consumer of credit notes' refund requests (the BILLING_INVOICING stream is made sure of by the payment consumers). */
export async function startRefundConsumer(
  bus: Bus,
  deps: RefundDeps,
  options: { durablePrefix: string; logger: Logger },
): Promise<ConsumerHandle> {
  const durable = `${options.durablePrefix}_payment_refunds`;
  return runConsumer({
    bus,
    stream: Streams.invoicing.name,
    durable,
    filterSubjects: [...REFUND_SUBJECTS],
    logger: options.logger.child({ consumer: durable }),
    handler: refundRequestedHandler(deps),
    concurrency: 8,
    // created now, it starts with the requests published from now on: the stream's older requests
    // (notes made before refunds were executed, perhaps refunded by hand since) move no money
    deliverNew: true,
  });
}
