import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { Connection } from "mongoose";
import {
  ensureStream,
  publishFromOutbox,
  runConsumer,
  startOutboxRelay,
  Streams,
  type Bus,
  type ConsumerHandle,
  type OutboxRelay,
  type OutboxStore,
} from "@billing/bus";
import type { Clock } from "@billing/clock";
import { peerAddress } from "@billing/config";
import {
  Rpc,
  type PaymentMessages,
  type PaymentRequestRpc,
  type PaymentRpc,
  type WebhookRpc,
} from "@billing/contracts";
import { presentPaymentRequest } from "@billing/views";
import { bind, type Handlers } from "@billing/grpc";
import type { Logger } from "@billing/logger";
import { defineService } from "@billing/runtime";
import { paymentConfigSchema } from "./config";
import { INVOICE_SUBJECTS, invoiceFinalizedHandler } from "./events/invoice-finalized";
import { paymentHandlers } from "./grpc/payment-handlers";
import { paymentRequestHandlers } from "./grpc/payment-request-handlers";
import { paymentRequestMessage } from "./grpc/payment-request-messages";
import { getPaymentRequest } from "./use-cases/payment-requests/get-payment-request";
import { grpcCustomers, type Customers } from "./peers/customers";
import { grpcInvoicing, type Invoicing } from "./peers/invoicing";
import { sandboxProvider } from "./peers/sandbox-provider";
import { registerModels, type Models } from "./persistence/models";
import { registerPaymentRequestModel } from "./persistence/payment-request-model";
import { PaymentRequestRepository } from "./persistence/payment-request-repository";
import { InvoiceClaims, registerClaimModel } from "./persistence/invoice-claims";
import { PaymentSettings, registerSettingsModel } from "./persistence/payment-settings";
import { PaymentRepository } from "./persistence/payment-repository";
import { startPaymentSweeper } from "./schedule/payment-sweeper";
import { startRefundSweeper } from "./schedule/refund-sweeper";
import { WEBHOOK_SUBJECTS } from "./domain/webhook-events";
import { someEndpointWants, webhookFanoutHandler } from "./events/webhook-fanout";
import { webhookHandlers } from "./grpc/webhook-handlers";
import { httpPoster, type WebhookPoster } from "./peers/webhook-http";
import { grpcWebhookObjects, type WebhookObjects } from "./peers/webhook-objects";
import { DeliveryInserter } from "./persistence/delivery-inserter";
import { EndpointDirectory } from "./persistence/endpoint-directory";
import { registerWebhookModels } from "./persistence/webhook-models";
import { WebhookRepository } from "./persistence/webhook-repository";
import { WebhookDispatcher, type DispatcherSettings } from "./schedule/webhook-dispatcher";
import { startWebhookSweeper } from "./schedule/webhook-sweeper";
import type { WebhookDeps } from "./use-cases/webhooks/deps";
import { signingKeysOf } from "./persistence/signing-keys";
import type { PaymentDeps, PaymentRequestDeps } from "./use-cases/deps";
import { startRefundConsumer, wireRefunds } from "./refund-wiring";
import { grpcCreditNotes } from "./peers/credit-notes";

export interface PaymentWiring {
  models: Models;
  deps: PaymentDeps;
  handlers: Handlers<PaymentRpc>;
}

/** The payment service's repositories on one connection, its providers, the use cases' dependencies and the gRPC handlers (shared with the integration tests). */
export function wirePayment(
  connection: Connection,
  parts: {
    clock: Clock;
    customers: Customers;
    invoicing: Invoicing;
    publicUrl: string;
    returnUrl: string;
    /** where payment events go (without it they wait in the outbox) */
    bus?: { bus: Bus; logger: Logger };
  },
): PaymentWiring {
  const models = registerModels(connection);
  const sandbox = sandboxProvider(models.sandboxCharges, parts.publicUrl);
  const payments = new PaymentRepository(models);
  const outbox = payments.outbox();
  const deps: PaymentDeps = {
    payments,
    claims: new InvoiceClaims(registerClaimModel(connection)),
    settings: new PaymentSettings(registerSettingsModel(connection)),
    invoicing: parts.invoicing,
    customers: parts.customers,
    providers: new Map([[sandbox.type, sandbox]]),
    clock: parts.clock,
    returnUrl: parts.returnUrl,
    publishPayment: async (id, events) => {
      if (parts.bus && events.length > 0) await publishFromOutbox(parts.bus.bus, outbox, id, events, parts.bus.logger);
    },
  };
  return { models, deps, handlers: paymentHandlers(deps) };
}

export interface PaymentRequestWiring {
  deps: PaymentRequestDeps;
  handlers: Handlers<PaymentRequestRpc>;
  /** The requests' embedded outbox, whose leftovers a relay republishes. */
  outbox: OutboxStore;
}

/** Payment requests beside the payments (same connection, providers and peers), their events published from their outbox. */
export function wirePaymentRequests(
  connection: Connection,
  payment: PaymentDeps,
  parts: { bus: Bus; logger: Logger },
): PaymentRequestWiring {
  const paymentRequests = new PaymentRequestRepository(registerPaymentRequestModel(connection));
  const outbox = paymentRequests.outbox();
  const deps: PaymentRequestDeps = {
    ...payment,
    paymentRequests,
    publishRequest: (requestId, events) => publishFromOutbox(parts.bus, outbox, requestId, events, parts.logger),
  };
  return { deps, handlers: paymentRequestHandlers(deps), outbox };
}

/** The relay of the payment service's outboxes (the BILLING_PAYMENT stream made sure of first). */
export async function startPaymentRelay(
  bus: Bus,
  outboxes: OutboxStore[],
  options: { replicas: number; logger: Logger },
): Promise<OutboxRelay> {
  await ensureStream(bus.jsm, Streams.payment, options.replicas);
  return startOutboxRelay(bus, outboxes, options.logger);
}

export interface WebhookWiring {
  deps: WebhookDeps;
  handlers: Handlers<WebhookRpc>;
  dispatcher: WebhookDispatcher;
  poster: WebhookPoster;
}

/** Webhook endpoints, deliveries and their sender (shared with the integration tests, which bring their own objects peer). */
export function wireWebhooks(
  connection: Connection,
  parts: {
    clock: Clock;
    objects: WebhookObjects;
    logger: Logger;
    issuer: string;
    allowPrivate: boolean;
    timeoutMs: number;
    settings: DispatcherSettings;
    poster?: WebhookPoster;
    /** jwt signatures' lifetime and how long an organization's RSA key pair is kept (WEBHOOK_JWT_TTL_S, WEBHOOK_KEY_CACHE_MS; their defaults when absent) */
    jwt?: { ttlS: number; keyCacheMs: number };
  },
): WebhookWiring {
  const webhooks = new WebhookRepository(registerWebhookModels(connection));
  const directory = new EndpointDirectory(webhooks);
  const keys = signingKeysOf(webhooks, {
    issuer: parts.issuer,
    jwtTtlS: parts.jwt?.ttlS ?? 600,
    rsaCacheMs: parts.jwt?.keyCacheMs ?? 60_000,
  });
  const poster =
    parts.poster ??
    httpPoster({
      timeoutMs: parts.timeoutMs,
      allowPrivate: parts.allowPrivate,
      maxSockets: parts.settings.endpointConcurrency,
    });
  const dispatcher = new WebhookDispatcher(
    {
      repository: webhooks,
      poster,
      endpoint: (id) => directory.endpoint(id),
      signingKeys: (e) => keys.forEndpoint(e),
      logger: parts.logger.child({ part: "webhooks" }),
    },
    parts.settings,
  );
  const deps: WebhookDeps = {
    webhooks,
    directory,
    inserter: new DeliveryInserter(webhooks),
    objects: parts.objects,
    dispatcher,
    keys,
    clock: parts.clock,
    allowPrivate: parts.allowPrivate,
  };
  return { deps, handlers: webhookHandlers(deps), dispatcher, poster };
}

/** The fan-out: one durable consumer per stream whose events become webhooks; each event stored as its deliveries before it is acknowledged. */
export async function startWebhookConsumers(
  bus: Bus,
  deps: WebhookDeps,
  options: { durablePrefix: string; replicas: number; logger: Logger; concurrency?: number },
): Promise<ConsumerHandle[]> {
  const handler = webhookFanoutHandler(deps);
  // an event no endpoint of its organization subscribes to is passed over undecoded (a burst of fees, most organizations)
  const skip = async (subject: string, organizationId: string) =>
    !(await someEndpointWants(deps, subject, organizationId));
  const streams = [Streams.customer, Streams.catalog, Streams.invoicing, Streams.wallet, Streams.payment];
  return Promise.all(
    streams.map(async (stream) => {
      await ensureStream(bus.jsm, stream, options.replicas);
      const prefix = stream.subjects[0]!.replace(/>$/, "");
      const durable = `${options.durablePrefix}_webhooks_${stream.name.toLowerCase()}`;
      return runConsumer({
        bus,
        stream: stream.name,
        durable,
        filterSubjects: WEBHOOK_SUBJECTS.filter((s) => s.startsWith(prefix)),
        logger: options.logger.child({ consumer: durable }),
        // delivered headers only: a message no endpoint wants (most of a burst of fees) never crosses the wire; the others are read by sequence
        handler,
        skip,
        headersOnly: true,
        concurrency: options.concurrency ?? 64,
        retryDelayMs: 1000,
      });
    }),
  );
}

/** The payment service's consumer: finalized invoices are charged through their customer's provider. */
export async function startConsumers(
  bus: Bus,
  deps: PaymentDeps,
  options: { durablePrefix: string; replicas: number; logger: Logger },
): Promise<ConsumerHandle[]> {
  await ensureStream(bus.jsm, Streams.invoicing, options.replicas);
  const durable = `${options.durablePrefix}_payment_invoices`;
  return [
    await runConsumer({
      bus,
      stream: Streams.invoicing.name,
      durable,
      filterSubjects: [...INVOICE_SUBJECTS],
      logger: options.logger.child({ consumer: durable }),
      handler: invoiceFinalizedHandler(deps),
      concurrency: 8,
    }),
  ];
}

/** The payment service owns payments (and, next, payment requests, webhook endpoints and deliveries). */
export const paymentService = defineService({
  name: "payment",
  config: paymentConfigSchema,
  wire: async ({ config, connection, clock, logger, bus }) => {
    const customers = grpcCustomers(peerAddress(config, "customer"));
    const invoicing = grpcInvoicing(peerAddress(config, "invoicing"));
    const { handlers, deps } = wirePayment(connection, {
      clock,
      customers,
      invoicing,
      publicUrl: config.PUBLIC_URL,
      returnUrl: config.PAYMENT_RETURN_URL,
      bus: { bus, logger },
    });
    const requests = wirePaymentRequests(connection, deps, { bus, logger });
    const creditNotes = grpcCreditNotes(peerAddress(config, "invoicing"));
    const refunds = wireRefunds(connection, deps, { creditNotes, bus: { bus, logger } });
    const relay = await startPaymentRelay(bus, [deps.payments.outbox(), requests.outbox, refunds.outbox], {
      replicas: config.JETSTREAM_REPLICAS,
      logger,
    });
    const consumers = await startConsumers(bus, deps, {
      durablePrefix: config.DURABLE_PREFIX,
      replicas: config.JETSTREAM_REPLICAS,
      logger,
    });
    consumers.push(await startRefundConsumer(bus, refunds.deps, { durablePrefix: config.DURABLE_PREFIX, logger }));
    const sweeper = startPaymentSweeper(deps, config.PAYMENT_SWEEP_MS, logger);
    const refundSweeper = startRefundSweeper(refunds.deps, {
      intervalMs: config.PAYMENT_SWEEP_MS,
      recheckMs: config.PAYMENT_REFUND_RECHECK_MS,
      logger,
    });
    const objects = grpcWebhookObjects(
      {
        customer: peerAddress(config, "customer"),
        catalog: peerAddress(config, "catalog"),
        invoicing: peerAddress(config, "invoicing"),
        wallet: peerAddress(config, "wallet"),
      },
      deps.payments,
      {
        payment_request: async (org, id) =>
          presentPaymentRequest(
            paymentRequestMessage(
              await getPaymentRequest(requests.deps, org, id),
            ) as PaymentMessages.PaymentRequest__Output,
          ),
      },
    );
    const webhooks = wireWebhooks(connection, {
      clock,
      objects,
      logger,
      issuer: config.PUBLIC_URL,
      allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      jwt: { ttlS: config.WEBHOOK_JWT_TTL_S, keyCacheMs: config.WEBHOOK_KEY_CACHE_MS },
      settings: {
        owner: `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`,
        leaseMs: config.WEBHOOK_LEASE_MS,
        endpointConcurrency: config.WEBHOOK_ENDPOINT_CONCURRENCY,
        maxInFlight: config.WEBHOOK_MAX_IN_FLIGHT,
        maxQueuedPerEndpoint: config.WEBHOOK_QUEUE_PER_ENDPOINT,
        retryScale: config.WEBHOOK_RETRY_SCALE,
      },
    });
    const fanout = await startWebhookConsumers(bus, webhooks.deps, {
      durablePrefix: config.DURABLE_PREFIX,
      replicas: config.JETSTREAM_REPLICAS,
      logger,
    });
    const webhookSweeper = startWebhookSweeper(webhooks.deps.webhooks, webhooks.dispatcher, {
      intervalMs: config.WEBHOOK_SWEEP_MS,
      logger,
    });
    return {
      bindings: [
        bind(Rpc.payment, handlers),
        bind(Rpc.paymentRequests, requests.handlers),
        bind(Rpc.webhooks, webhooks.handlers),
      ],
      onStop: async () => {
        await Promise.all(fanout.map((c) => c.stop()));
        await webhookSweeper.stop();
        await webhooks.dispatcher.stop();
        webhooks.poster.close();
        objects.close();
        relay.stop();
        await sweeper.stop();
        await refundSweeper.stop();
        await Promise.all(consumers.map((c) => c.stop()));
        customers.close();
        invoicing.close();
        creditNotes.close();
      },
    };
  },
});
