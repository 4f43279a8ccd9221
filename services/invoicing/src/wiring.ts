import type { Connection } from "mongoose";
import { ensureStream, publishFromOutbox, runConsumer, startOutboxRelay, Streams, type Bus, type ConsumerHandle } from "@billing/bus";
import type { Clock } from "@billing/clock";
import { peerAddress } from "@billing/config";
import { Rpc } from "@billing/contracts";
import { bind, type ServiceBinding } from "@billing/grpc";
import type { Logger } from "@billing/logger";
import { defineService } from "@billing/runtime";
import { invoicingConfigSchema } from "./config";
import { SUBSCRIPTION_SUBJECTS, subscriptionEventHandler } from "./events/catalog-subscriptions";
import { CUSTOMER_SUBJECTS, customerEventHandler } from "./events/customers";
import { invoiceHandlers } from "./grpc/invoice-handlers";
import { scheduledWorkHandlers } from "./grpc/scheduled-work-handlers";
import { grpcBillingEntities, type BillingEntities } from "./peers/billing-entities";
import { grpcUsage, type UsagePeer } from "./peers/usage";
import { CopyRepository } from "./persistence/copy-repository";
import { InvoiceNumbers } from "./persistence/invoice-numbers";
import { InvoiceRepository } from "./persistence/invoice-repository";
import { registerModels } from "./persistence/models";
import { startBillingScheduler } from "./schedule/billing-scheduler";
import type { InvoicingDeps } from "./use-cases/deps";

/** The durable consumers that feed the read copies: [stream, durable, subjects]. */
const consumersOf = (prefix: string) => [
  { stream: Streams.catalog, durable: `${prefix}_invoicing_subscriptions`, subjects: SUBSCRIPTION_SUBJECTS, handler: subscriptionEventHandler },
  { stream: Streams.customer, durable: `${prefix}_invoicing_customers`, subjects: CUSTOMER_SUBJECTS, handler: customerEventHandler },
];

export interface InvoicingWiring {
  deps: InvoicingDeps;
  bindings: ServiceBinding[];
  stop(): Promise<void>;
}

/**
 * The invoicing service on one connection: repositories, peers, the consumers of the catalog's
 * subscriptions and the customer service's customers, the outbox relay and the gRPC bindings;
 * the service and its integration tests wire it the same way.
 */
export async function wireInvoicing(
  connection: Connection,
  parts: { bus: Bus; clock: Clock; logger: Logger; usage: UsagePeer; billingEntities: BillingEntities; durablePrefix: string; replicas?: number },
): Promise<InvoicingWiring> {
  const models = registerModels(connection);
  const invoices = new InvoiceRepository(models);
  const outbox = invoices.outbox();
  const consumers = consumersOf(parts.durablePrefix);
  const deps: InvoicingDeps = {
    copies: new CopyRepository(models),
    invoices,
    numbers: new InvoiceNumbers(models),
    usage: parts.usage,
    billingEntities: parts.billingEntities,
    clock: parts.clock,
    logger: parts.logger,
    publish: async (invoiceId, events) => {
      for (const event of events) await publishFromOutbox(parts.bus, outbox, invoiceId, event, parts.logger);
    },
    caughtUp: async () => {
      for (let i = 0; i < 300; i++) {
        const infos = await Promise.all(consumers.map((c) => parts.bus.jsm.consumers.info(c.stream.name, c.durable)));
        if (infos.every((info) => info.num_pending === 0 && info.num_ack_pending === 0)) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error("invoicing consumers did not catch up within 15 s");
    },
  };
  const handles: ConsumerHandle[] = [];
  for (const c of consumers) {
    await ensureStream(parts.bus.jsm, c.stream, parts.replicas);
    handles.push(await runConsumer({
      bus: parts.bus, stream: c.stream.name, durable: c.durable, filterSubjects: [...c.subjects],
      logger: parts.logger.child({ consumer: c.durable }), handler: c.handler(deps), concurrency: 8, retryDelayMs: 500,
    }));
  }
  const relay = startOutboxRelay(parts.bus, [outbox], parts.logger);
  return {
    deps,
    bindings: [bind(Rpc.invoicing, invoiceHandlers(deps)), bind(Rpc.scheduledWork, scheduledWorkHandlers(deps))],
    stop: async () => {
      relay.stop();
      await Promise.all(handles.map((h) => h.stop()));
    },
  };
}

/**
 * The invoicing service owns invoices, fees, invoice numbering and billing runs (credit notes come
 * next). See services/README.md for where each part goes.
 */
export const invoicingService = defineService({
  name: "invoicing",
  config: invoicingConfigSchema,
  wire: async ({ config, connection, bus, clock, logger }) => {
    const usage = grpcUsage(peerAddress(config, "usage"));
    const billingEntities = grpcBillingEntities(peerAddress(config, "customer"));
    const wiring = await wireInvoicing(connection, {
      bus, clock, logger, usage, billingEntities, durablePrefix: config.DURABLE_PREFIX, replicas: config.JETSTREAM_REPLICAS,
    });
    const scheduler = startBillingScheduler(wiring.deps, config.BILLING_SCHEDULER_MS);
    return {
      bindings: wiring.bindings,
      onStop: async () => {
        await scheduler.stop();
        await wiring.stop();
        usage.close();
        billingEntities.close();
      },
    };
  },
});
