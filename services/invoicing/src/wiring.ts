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
import { usageHandlers } from "./grpc/usage-handlers";
import { grpcAppliedCoupons, type AppliedCoupons } from "./peers/applied-coupons";
import { grpcBillingEntities, type BillingEntities } from "./peers/billing-entities";
import { grpcUsage, type UsagePeer } from "./peers/usage";
import { grpcUsageAudit, type UsageAuditPeer } from "./peers/usage-audit";
import { grpcPlans, type PlansPeer } from "./peers/plans";
import { invoiceAuditHandlers } from "./grpc/invoice-audit-handlers";
import { grpcWallets, type Wallets } from "./peers/wallets";
import { CopyRepository } from "./persistence/copy-repository";
import { InvoiceNumbers } from "./persistence/invoice-numbers";
import { InvoiceRepository } from "./persistence/invoice-repository";
import { registerModels } from "./persistence/models";
import { startBillingScheduler } from "./schedule/billing-scheduler";
import type { BillingLimits, InvoicingDeps } from "./use-cases/deps";

/** The peers invoicing calls: the usage service (priced usage), the customer service (billing entities), the catalog (applied coupons), the wallet service (prepaid credits). */
export interface InvoicingPeers {
  usage: UsagePeer;
  billingEntities: BillingEntities;
  appliedCoupons: AppliedCoupons;
  wallets: Wallets;
  /** the usage service's raw-event re-derivation (invoice audits); absent: audits answer 503 */
  usageAudit?: UsageAuditPeer;
  /** the catalog's plans by code (plan simulations); absent: simulations answer 503 */
  plans?: PlansPeer;
}

/** The peers over gRPC at their addresses (the service and its integration tests alike). */
export function grpcPeers(addresses: { usage: string; customer: string; catalog: string; wallet: string }): InvoicingPeers {
  return {
    usage: grpcUsage(addresses.usage),
    billingEntities: grpcBillingEntities(addresses.customer),
    appliedCoupons: grpcAppliedCoupons(addresses.catalog),
    wallets: grpcWallets(addresses.wallet),
    usageAudit: grpcUsageAudit(addresses.usage),
    plans: grpcPlans(addresses.catalog),
  };
}

export interface InvoicingWiring {
  deps: InvoicingDeps;
  bindings: ServiceBinding[];
  stop(): Promise<void>;
}

export interface InvoicingParts {
  bus: Bus;
  clock: Clock;
  logger: Logger;
  peers: InvoicingPeers;
  durablePrefix: string;
  limits?: Partial<BillingLimits>;
  replicas?: number;
}

/**
 * The invoicing service on one connection: repositories, peers, the consumers of the catalog's
 * subscriptions and the customer service's customers, the outbox relay and the gRPC bindings;
 * the service and its integration tests wire it the same way.
 */
export async function wireInvoicing(connection: Connection, parts: InvoicingParts): Promise<InvoicingWiring> {
  const models = registerModels(connection);
  const invoices = new InvoiceRepository(models);
  const outbox = invoices.outbox();
  const consumers = [
    { stream: Streams.catalog, durable: `${parts.durablePrefix}_invoicing_subscriptions`, subjects: SUBSCRIPTION_SUBJECTS, handler: subscriptionEventHandler },
    { stream: Streams.customer, durable: `${parts.durablePrefix}_invoicing_customers`, subjects: CUSTOMER_SUBJECTS, handler: customerEventHandler },
  ];
  const deps: InvoicingDeps = {
    copies: new CopyRepository(models),
    invoices,
    numbers: new InvoiceNumbers(models),
    ...parts.peers,
    clock: parts.clock,
    logger: parts.logger,
    limits: { batch: parts.limits?.batch ?? 500, concurrency: parts.limits?.concurrency ?? 8 },
    publish: async (invoiceId, events) => {
      await publishFromOutbox(parts.bus, outbox, invoiceId, events, parts.logger);
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
    bindings: [
      bind(Rpc.invoicing, { ...invoiceHandlers(deps), ...usageHandlers(deps) }),
      bind(Rpc.scheduledWork, scheduledWorkHandlers(deps)),
      bind(Rpc.invoiceAudit, invoiceAuditHandlers({ ...deps, usageAudit: parts.peers.usageAudit, plans: parts.peers.plans })),
    ],
    stop: async () => {
      relay.stop();
      await Promise.all(handles.map((h) => h.stop()));
    },
  };
}

/**
 * The invoicing service owns invoices, fees, invoice numbering and billing runs. See
 * services/README.md for where each part goes, and README.md here for how billing runs.
 */
export const invoicingService = defineService({
  name: "invoicing",
  config: invoicingConfigSchema,
  wire: async ({ config, connection, bus, clock, logger }) => {
    const peers = grpcPeers({ usage: peerAddress(config, "usage"), customer: peerAddress(config, "customer"), catalog: peerAddress(config, "catalog"), wallet: peerAddress(config, "wallet") });
    const wiring = await wireInvoicing(connection, {
      bus, clock, logger, peers, durablePrefix: config.DURABLE_PREFIX, replicas: config.JETSTREAM_REPLICAS,
      limits: { batch: config.BILLING_BATCH, concurrency: config.BILLING_CONCURRENCY },
    });
    const scheduler = startBillingScheduler(wiring.deps, config.BILLING_SCHEDULER_MS);
    return {
      bindings: wiring.bindings,
      onStop: async () => {
        await scheduler.stop();
        await wiring.stop();
        peers.usage.close();
        peers.billingEntities.close();
        peers.appliedCoupons.close();
        peers.wallets.close();
        peers.usageAudit?.close();
        peers.plans?.close();
      },
    };
  },
});
