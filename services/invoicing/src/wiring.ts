import type { Connection } from "mongoose";
import {
  ensureStream,
  publishFromOutbox,
  publishManyFromOutbox,
  runBatchConsumer,
  runConsumer,
  startOutboxRelay,
  Streams,
  type Bus,
  type ConsumerHandle,
  type Envelope,
  type StreamSpec,
} from "@billing/bus";
import type { Clock } from "@billing/clock";
import { peerAddress } from "@billing/config";
import { Rpc } from "@billing/contracts";
import { bind, type ServiceBinding } from "@billing/grpc";
import type { Logger } from "@billing/logger";
import { defineService } from "@billing/runtime";
import { invoicingConfigSchema } from "./config";
import { SUBSCRIPTION_SUBJECTS, subscriptionEventHandler } from "./events/catalog-subscriptions";
import { CUSTOMER_SUBJECTS, customerEventHandler } from "./events/customers";
import { documentHandlers } from "./grpc/document-handlers";
import { creditNoteDocumentHandlers } from "./grpc/credit-note-document-handlers";
import { USAGE_SUBJECTS, advanceFeesBatchHandler } from "./events/usage-advance-fees";
import { CREDIT_NOTE_SUBJECTS, creditNoteEventHandler } from "./events/credit-note-offsets";
import { creditNoteHandlers } from "./grpc/credit-note-handlers";
import { invoiceHandlers, invoiceOperationHandlers } from "./grpc/invoice-handlers";
import { lifetimeUsageHandlers } from "./grpc/lifetime-usage-handlers";
import { scheduledWorkHandlers } from "./grpc/scheduled-work-handlers";
import { usageHandlers } from "./grpc/usage-handlers";
import { grpcAddOns, type AddOns } from "./peers/add-ons";
import { grpcAppliedCoupons, type AppliedCoupons } from "./peers/applied-coupons";
import { grpcBillingEntities, type BillingEntities } from "./peers/billing-entities";
import { grpcDocumentParties, type DocumentParties } from "./peers/document-parties";
import { grpcUsage, type UsagePeer } from "./peers/usage";
import { grpcTestClocks, type TestClocks } from "./peers/test-clocks";
import { grpcUsageAudit, type UsageAuditPeer } from "./peers/usage-audit";
import { grpcPlans, type PlansPeer } from "./peers/plans";
import { invoiceAuditHandlers } from "./grpc/invoice-audit-handlers";
import { grpcWallets, type Wallets } from "./peers/wallets";
import { grpcVoidRecredits, type VoidRecredits } from "./peers/void-recredits";
import { grpcCreditInvoiceWallets, type CreditInvoiceWallets } from "./peers/credit-invoice-wallets";
import { VOIDED_INVOICE_SUBJECTS, voidedInvoiceEventHandler } from "./events/voided-invoices";
import { grpcAdvanceFees, type AdvanceFeesPeer } from "./peers/advance-fees";
import { FeeRepository } from "./persistence/fee-repository";
import { usageThresholdsHandler } from "./events/usage-thresholds";
import { feeHandlers } from "./grpc/fee-handlers";
import type { FeeDeps } from "./use-cases/fees/deps";
import { CopyRepository } from "./persistence/copy-repository";
import { DocumentRepository } from "./persistence/document-repository";
import { CreditNoteRepository } from "./persistence/credit-note-repository";
import { InvoiceNumbers } from "./persistence/invoice-numbers";
import { InvoiceRepository } from "./persistence/invoice-repository";
import { ProgressiveRepository } from "./persistence/progressive-repository";
import { registerModels } from "./persistence/models";
import { startBillingScheduler } from "./schedule/billing-scheduler";
import type { BillingLimits, InvoicingDeps } from "./use-cases/deps";
import { creditNoteFileUrl, invoiceFileUrl, type DocumentLinkSettings } from "./use-cases/documents/file-url";

/** The peers invoicing calls: the usage service (priced usage), the customer service (billing entities), the catalog (applied coupons), the wallet service (prepaid credits). */
export interface InvoicingPeers {
  usage: UsagePeer;
  billingEntities: BillingEntities;
  appliedCoupons: AppliedCoupons;
  wallets: Wallets;
  /** the customer service again, for what documents show of the customer and the issuer, and the custom sections invoices show */
  documentParties: DocumentParties;
  /** The usage service's pay-in-advance pricing (absent: no pay-in-advance fees are made, e.g. in tests that do not need them). */
  advanceFees?: AdvanceFeesPeer;
  /** sandbox organizations' frozen time, for usage envelopes that do not carry it (progressive billing) */
  testClocks: TestClocks;
  /** the catalog's add-ons and taxes (one-off invoices) */
  addOns: AddOns;
  /** the usage service's raw-event re-derivation (invoice audits); absent: audits answer 503 */
  usageAudit?: UsageAuditPeer;
  /** the catalog's plans by code (plan simulations); absent: simulations answer 503 */
  plans?: PlansPeer;
  /** what a voided invoice gives back to applied coupons and wallets */
  voidRecredits: VoidRecredits;
  /** a credit invoice's wallet, for credit notes on it */
  creditInvoiceWallets: CreditInvoiceWallets;
}

/** The peers over gRPC at their addresses (the service and its integration tests alike). */
export function grpcPeers(addresses: {
  usage: string;
  customer: string;
  catalog: string;
  wallet: string;
}): InvoicingPeers {
  return {
    usage: grpcUsage(addresses.usage),
    billingEntities: grpcBillingEntities(addresses.customer),
    appliedCoupons: grpcAppliedCoupons(addresses.catalog),
    wallets: grpcWallets(addresses.wallet),
    documentParties: grpcDocumentParties(addresses.customer, addresses.catalog),
    advanceFees: grpcAdvanceFees(addresses.usage),
    testClocks: grpcTestClocks(addresses.customer),
    addOns: grpcAddOns(addresses.catalog),
    usageAudit: grpcUsageAudit(addresses.usage),
    plans: grpcPlans(addresses.catalog),
    voidRecredits: grpcVoidRecredits(addresses),
    creditInvoiceWallets: grpcCreditInvoiceWallets(addresses.wallet),
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
  /** ingested envelopes priced per pay-in-advance batch at most (50) */
  advanceBatch?: number;
  replicas?: number;
  /** file_url links (absent: no file_url) */
  documentLinks?: DocumentLinkSettings;
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
  const fees = new FeeRepository(connection);
  const feeOutbox = fees.outbox();
  const creditNotes = new CreditNoteRepository(connection);
  const creditNoteOutbox = creditNotes.outbox();
  const progressive = new ProgressiveRepository(models);
  const consumers: Array<{
    stream: StreamSpec;
    durable: string;
    subjects: readonly string[];
    handler: (d: InvoicingDeps & FeeDeps) => (e: Envelope) => Promise<void>;
    inOrder?: boolean;
    concurrency?: number;
    deliverNew?: boolean;
    skip?: (subject: string, organizationId: string) => Promise<boolean>;
  }> = [
    {
      stream: Streams.catalog,
      durable: `${parts.durablePrefix}_invoicing_subscriptions`,
      subjects: SUBSCRIPTION_SUBJECTS,
      handler: subscriptionEventHandler,
    },
    {
      stream: Streams.customer,
      durable: `${parts.durablePrefix}_invoicing_customers`,
      subjects: CUSTOMER_SUBJECTS,
      handler: customerEventHandler,
    },
    // progressive billing: usage thresholds checked per envelope of ingested events; each check reads the
    // whole current usage, so a new durable starts with new envelopes (older usage is counted by the next check)
    // (an organization that never billed progressively: its envelopes are acknowledged undecoded, by their organization header)
    {
      stream: Streams.usage,
      durable: `${parts.durablePrefix}_invoicing_usage`,
      subjects: USAGE_SUBJECTS,
      handler: usageThresholdsHandler,
      concurrency: 64,
      deliverNew: true,
      skip: async (_subject, organizationId) => !(await progressive.billsProgressively(organizationId)),
    },
    {
      stream: Streams.invoicing,
      durable: `${parts.durablePrefix}_invoicing_credit_notes`,
      subjects: CREDIT_NOTE_SUBJECTS,
      handler: creditNoteEventHandler,
    },
    {
      stream: Streams.invoicing,
      durable: `${parts.durablePrefix}_invoicing_voided_invoices`,
      subjects: VOIDED_INVOICE_SUBJECTS,
      handler: voidedInvoiceEventHandler,
    },
  ];
  // pay-in-advance fees: the usage service's ingested envelopes in stream order, in batches of consecutive envelopes (runBatchConsumer)
  const advanceDurable = parts.peers.advanceFees
    ? { stream: Streams.usage, durable: `${parts.durablePrefix}_invoicing_advance_fees` }
    : null;
  const deps: InvoicingDeps = {
    copies: new CopyRepository(models),
    invoices,
    numbers: new InvoiceNumbers(models),
    progressive,
    ...parts.peers,
    clock: parts.clock,
    logger: parts.logger,
    limits: { batch: parts.limits?.batch ?? 500, concurrency: parts.limits?.concurrency ?? 8 },
    ...(parts.documentLinks ? { fileUrl: (invoice) => invoiceFileUrl(parts.documentLinks!, invoice) } : {}),
    ...(parts.documentLinks ? { creditNoteFileUrl: (note) => creditNoteFileUrl(parts.documentLinks!, note) } : {}),
    waitingFees: {
      attach: (feeIds, invoiceId) => fees.attach(feeIds, invoiceId, parts.clock.now()),
      paid: async (organizationId, subscriptionIds, paidBy, periodEndedBy) =>
        (await fees.paidWaiting(organizationId, subscriptionIds, paidBy, periodEndedBy)).map((r) => r.fee),
      store: (records) => fees.insertMany(records),
      announce: async (batchId, events) => {
        if ((await fees.insertBatches([{ id: batchId, events }])).length > 0)
          await publishFromOutbox(parts.bus, feeOutbox, batchId, events, parts.logger);
      },
    },
    publish: async (invoiceId, events) => {
      await publishFromOutbox(parts.bus, outbox, invoiceId, events, parts.logger);
    },
    creditNotes,
    publishCreditNote: async (creditNoteId, events) => {
      await publishFromOutbox(parts.bus, creditNoteOutbox, creditNoteId, events, parts.logger);
    },
    caughtUp: async () => {
      for (let i = 0; i < 300; i++) {
        const infos = await Promise.all(
          [...consumers, ...(advanceDurable ? [advanceDurable] : [])].map((c) =>
            parts.bus.jsm.consumers.info(c.stream.name, c.durable),
          ),
        );
        if (infos.every((info) => info.num_pending === 0 && info.num_ack_pending === 0)) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error("invoicing consumers did not catch up within 15 s");
    },
  };
  // the fee use cases' deps, and the pool the consumers take theirs from
  const feeDeps: InvoicingDeps & FeeDeps = {
    ...deps,
    fees,
    advanceFees: parts.peers.advanceFees ?? {
      price: async () => [],
      priceBatch: async (envelopes) => envelopes.map(() => []),
      close: () => undefined,
    },
    publishManyFeeEvents: async (byBatch) => {
      await publishManyFromOutbox(parts.bus, feeOutbox, byBatch, parts.logger);
    },
  };
  // organizations whose copies were stored before progressive marks existed are marked before any usage is checked
  await deps.progressive.markProgressiveOrganizations(parts.clock.now());
  const handles: ConsumerHandle[] = [];
  for (const c of consumers) {
    await ensureStream(parts.bus.jsm, c.stream, parts.replicas);
    handles.push(
      await runConsumer({
        bus: parts.bus,
        stream: c.stream.name,
        durable: c.durable,
        filterSubjects: [...c.subjects],
        logger: parts.logger.child({ consumer: c.durable }),
        handler: c.handler(feeDeps),
        concurrency: c.inOrder ? 1 : (c.concurrency ?? 8),
        // pay-in-advance fees start with the durable: usage ingested before it existed is not billed in advance
        ...(c.inOrder ? { maxAckPending: 1 } : {}),
        ...(c.deliverNew ? { deliverNew: true } : {}),
        ...(c.skip ? { skip: c.skip } : {}),
      }),
    );
  }
  if (advanceDurable) {
    await ensureStream(parts.bus.jsm, advanceDurable.stream, parts.replicas);
    // pay-in-advance fees start with the durable: usage ingested before it existed is not billed in advance
    handles.push(
      await runBatchConsumer({
        bus: parts.bus,
        stream: advanceDurable.stream.name,
        durable: advanceDurable.durable,
        filterSubjects: [...USAGE_SUBJECTS],
        logger: parts.logger.child({ consumer: advanceDurable.durable }),
        handler: advanceFeesBatchHandler(feeDeps),
        deliverNew: true,
        maxBatch: parts.advanceBatch ?? 50,
      }),
    );
  }
  const documentDeps = {
    invoices,
    creditNotes,
    copies: deps.copies,
    documents: new DocumentRepository(connection),
    parties: parts.peers.documentParties,
    logger: parts.logger,
    clock: parts.clock,
    publishCreditNote: (id: string, events: Envelope[]) => deps.publishCreditNote(id, events),
    publishInvoice: (id: string, events: Envelope[]) => deps.publish(id, events),
    fileUrl: (invoice: Parameters<typeof invoiceFileUrl>[1]) => deps.fileUrl?.(invoice) ?? null,
    creditNoteFileUrl: (note: Parameters<typeof creditNoteFileUrl>[1]) => deps.creditNoteFileUrl?.(note) ?? null,
  };
  const relay = startOutboxRelay(parts.bus, [outbox, feeOutbox, creditNoteOutbox], parts.logger);
  return {
    deps,
    bindings: [
      bind(Rpc.invoicing, { ...invoiceHandlers(deps), ...usageHandlers(deps) }),
      bind(Rpc.scheduledWork, scheduledWorkHandlers(deps)),
      bind(Rpc.invoiceDocuments, { ...documentHandlers(documentDeps), ...creditNoteDocumentHandlers(documentDeps) }),
      bind(Rpc.fees, feeHandlers(feeDeps)),
      bind(Rpc.lifetimeUsage, lifetimeUsageHandlers(deps)),
      bind(Rpc.creditNotes, { ...creditNoteHandlers(deps), ...invoiceOperationHandlers(deps) }),
      bind(
        Rpc.invoiceAudit,
        invoiceAuditHandlers({ ...deps, usageAudit: parts.peers.usageAudit, plans: parts.peers.plans }),
      ),
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
    const peers = grpcPeers({
      usage: peerAddress(config, "usage"),
      customer: peerAddress(config, "customer"),
      catalog: peerAddress(config, "catalog"),
      wallet: peerAddress(config, "wallet"),
    });
    const wiring = await wireInvoicing(connection, {
      bus,
      clock,
      logger,
      peers,
      durablePrefix: config.DURABLE_PREFIX,
      replicas: config.JETSTREAM_REPLICAS,
      limits: { batch: config.BILLING_BATCH, concurrency: config.BILLING_CONCURRENCY },
      advanceBatch: config.ADVANCE_FEE_BATCH,
      documentLinks: {
        secret: config.DOCUMENT_LINK_SECRET,
        publicApiUrl: config.PUBLIC_API_URL,
        ttlSeconds: config.DOCUMENT_LINK_TTL_S,
      },
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
        peers.documentParties.close();
        peers.advanceFees?.close();
        peers.testClocks.close();
        peers.addOns.close();
        peers.usageAudit?.close();
        peers.plans?.close();
        peers.voidRecredits.close();
        peers.creditInvoiceWallets.close();
      },
    };
  },
});
