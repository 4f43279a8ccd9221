import type { Connection } from "mongoose";
import { walletRecreditHandlers } from "./grpc/wallet-recredit-handlers";
import {
  ensureStream,
  publishManyFromOutbox,
  runConsumer,
  startOutboxRelay,
  Streams,
  type Bus,
  type ConsumerHandle,
  type OutboxStore,
} from "@billing/bus";
import type { Clock } from "@billing/clock";
import { peerAddress } from "@billing/config";
import { Rpc, type WalletRpc } from "@billing/contracts";
import { bind, type Handlers } from "@billing/grpc";
import type { Logger } from "@billing/logger";
import { embeddedOutboxStore } from "@billing/mongo";
import { defineService } from "@billing/runtime";
import { walletConfigSchema } from "./config";
import { INVOICE_PAYMENT_SUBJECTS, invoicePaymentHandler } from "./events/invoice-payments";
import { USAGE_SUBJECTS, usageIngestedHandler } from "./events/usage-ingested";
import { scheduledWorkHandlers } from "./grpc/scheduled-work-handlers";
import { walletHandlers } from "./grpc/wallet-handlers";
import { grpcCustomSections, type CustomSections } from "./peers/custom-sections";
import { grpcCustomers, type Customers } from "./peers/customers";
import { grpcInvoicing, type Invoicing } from "./peers/invoicing";
import { registerModels, type Models } from "./persistence/models";
import { WalletLedger } from "./persistence/wallet-ledger";
import { NO_PUBLISHER, WalletRepository, type WalletPublisher } from "./persistence/wallet-repository";
import { startExpirationScheduler } from "./schedule/expiration-scheduler";
import type { WalletDeps } from "./use-cases/deps";

export interface WalletWiring {
  models: Models;
  deps: WalletDeps;
  handlers: Handlers<WalletRpc>;
  /** The embedded outboxes (wallets', transactions') whose leftovers a relay republishes. */
  outboxes: OutboxStore[];
}

/**
 * Every repository of the wallet service on one connection, the use cases' dependencies and the
 * gRPC handlers; the service and its integration tests wire it the same way. With a bus, the
 * events written into the documents' outboxes are published right after each write.
 */
export function wireWallet(
  connection: Connection,
  parts: {
    clock: Clock;
    customers: Customers;
    invoicing: Invoicing;
    sections?: CustomSections;
    bus?: Bus;
    logger?: Logger;
  },
): WalletWiring {
  const models = registerModels(connection);
  const outboxes = {
    wallet: embeddedOutboxStore(models.wallets),
    transaction: embeddedOutboxStore(models.transactions),
  };
  const { bus, logger } = parts;
  const publish: WalletPublisher =
    bus && logger
      ? {
          wallets: (events) => publishManyFromOutbox(bus, outboxes.wallet, events, logger),
          transactions: (events) => publishManyFromOutbox(bus, outboxes.transaction, events, logger),
        }
      : NO_PUBLISHER;
  const deps: WalletDeps = {
    wallets: new WalletRepository(models, publish),
    ledger: new WalletLedger(models, publish),
    customers: parts.customers,
    invoicing: parts.invoicing,
    sections: parts.sections,
    clock: parts.clock,
  };
  return { models, deps, handlers: walletHandlers(deps), outboxes: [outboxes.wallet, outboxes.transaction] };
}

/**
 * The wallet service's consumers: the invoicing service's payment events (paid top-ups settle on
 * them) and the usage service's stored batches (ongoing balances follow them).
 */
export async function startConsumers(
  bus: Bus,
  deps: WalletDeps,
  options: { durablePrefix: string; replicas: number; logger: Logger },
): Promise<ConsumerHandle[]> {
  const consumers = [
    {
      stream: Streams.invoicing,
      durable: `${options.durablePrefix}_wallet_invoice_payments`,
      subjects: INVOICE_PAYMENT_SUBJECTS,
      handler: invoicePaymentHandler(deps),
      concurrency: 8,
    },
    // many batches in flight at once: they wait together for the refresh that covers them all; an
    // organization that never held a wallet's batches are acknowledged undecoded (its mark, by header)
    {
      stream: Streams.usage,
      durable: `${options.durablePrefix}_wallet_ongoing_usage`,
      subjects: USAGE_SUBJECTS,
      handler: usageIngestedHandler(deps),
      concurrency: 64,
      skip: async (_subject: string, organizationId: string) => !(await deps.wallets.holdsWallets(organizationId)),
    },
  ];
  // organizations whose wallets were stored before wallet marks existed are marked before any usage is read
  await deps.wallets.markHolders(deps.clock.now());
  const handles: ConsumerHandle[] = [];
  for (const c of consumers) {
    await ensureStream(bus.jsm, c.stream, options.replicas);
    handles.push(
      await runConsumer({
        bus,
        stream: c.stream.name,
        durable: c.durable,
        filterSubjects: [...c.subjects],
        logger: options.logger.child({ consumer: c.durable }),
        handler: c.handler,
        concurrency: c.concurrency,
        ...("skip" in c ? { skip: c.skip } : {}),
      }),
    );
  }
  return handles;
}

/** The wallet service owns wallets and their transactions (the ledger of every credit in and out). */
export const walletService = defineService({
  name: "wallet",
  config: walletConfigSchema,
  wire: async ({ config, connection, clock, logger, bus }) => {
    const customers = grpcCustomers(peerAddress(config, "customer"));
    const invoicing = grpcInvoicing(peerAddress(config, "invoicing"));
    const sections = grpcCustomSections(peerAddress(config, "catalog"));
    const { handlers, deps, outboxes } = wireWallet(connection, { clock, customers, invoicing, sections, bus, logger });
    const relay = startOutboxRelay(bus, outboxes, logger);
    const consumers = await startConsumers(bus, deps, {
      durablePrefix: config.DURABLE_PREFIX,
      replicas: config.JETSTREAM_REPLICAS,
      logger,
    });
    const expirations = startExpirationScheduler(deps, config.WALLET_SCHEDULER_MS, logger);
    return {
      bindings: [
        bind(Rpc.wallet, handlers),
        bind(Rpc.scheduledWork, scheduledWorkHandlers(deps)),
        bind(Rpc.walletRecredits, walletRecreditHandlers(deps)),
      ],
      onStop: async () => {
        await expirations.stop();
        relay.stop();
        await Promise.all(consumers.map((c) => c.stop()));
        customers.close();
        invoicing.close();
        sections.close();
      },
    };
  },
});
