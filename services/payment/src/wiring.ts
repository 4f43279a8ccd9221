import type { Connection } from "mongoose";
import { ensureStream, runConsumer, Streams, type Bus, type ConsumerHandle } from "@billing/bus";
import type { Clock } from "@billing/clock";
import { peerAddress } from "@billing/config";
import { Rpc, type PaymentRpc } from "@billing/contracts";
import { bind, type Handlers } from "@billing/grpc";
import type { Logger } from "@billing/logger";
import { defineService } from "@billing/runtime";
import { paymentConfigSchema } from "./config";
import { INVOICE_SUBJECTS, invoiceFinalizedHandler } from "./events/invoice-finalized";
import { paymentHandlers } from "./grpc/payment-handlers";
import { grpcCustomers, type Customers } from "./peers/customers";
import { grpcInvoicing, type Invoicing } from "./peers/invoicing";
import { sandboxProvider } from "./peers/sandbox-provider";
import { registerModels, type Models } from "./persistence/models";
import { PaymentRepository } from "./persistence/payment-repository";
import { startPaymentSweeper } from "./schedule/payment-sweeper";
import type { PaymentDeps } from "./use-cases/deps";

export interface PaymentWiring {
  models: Models;
  deps: PaymentDeps;
  handlers: Handlers<PaymentRpc>;
}

/** The payment service's repositories on one connection, its providers, the use cases' dependencies and the gRPC handlers (shared with the integration tests). */
export function wirePayment(connection: Connection, parts: { clock: Clock; customers: Customers; invoicing: Invoicing; publicUrl: string; returnUrl: string }): PaymentWiring {
  const models = registerModels(connection);
  const sandbox = sandboxProvider(models.sandboxCharges, parts.publicUrl);
  const deps: PaymentDeps = {
    payments: new PaymentRepository(models), invoicing: parts.invoicing, customers: parts.customers,
    providers: new Map([[sandbox.type, sandbox]]), clock: parts.clock, returnUrl: parts.returnUrl,
  };
  return { models, deps, handlers: paymentHandlers(deps) };
}

/** The payment service's consumer: finalized invoices are charged through their customer's provider. */
export async function startConsumers(bus: Bus, deps: PaymentDeps, options: { durablePrefix: string; replicas: number; logger: Logger }): Promise<ConsumerHandle[]> {
  await ensureStream(bus.jsm, Streams.invoicing, options.replicas);
  const durable = `${options.durablePrefix}_payment_invoices`;
  return [await runConsumer({
    bus, stream: Streams.invoicing.name, durable, filterSubjects: [...INVOICE_SUBJECTS], logger: options.logger.child({ consumer: durable }),
    handler: invoiceFinalizedHandler(deps), concurrency: 8, retryDelayMs: 500,
  })];
}

/** The payment service owns payments (and, next, payment requests, webhook endpoints and deliveries). */
export const paymentService = defineService({
  name: "payment",
  config: paymentConfigSchema,
  wire: async ({ config, connection, clock, logger, bus }) => {
    const customers = grpcCustomers(peerAddress(config, "customer"));
    const invoicing = grpcInvoicing(peerAddress(config, "invoicing"));
    const { handlers, deps } = wirePayment(connection, { clock, customers, invoicing, publicUrl: config.PUBLIC_URL, returnUrl: config.PAYMENT_RETURN_URL });
    const consumers = await startConsumers(bus, deps, { durablePrefix: config.DURABLE_PREFIX, replicas: config.JETSTREAM_REPLICAS, logger });
    const sweeper = startPaymentSweeper(deps, config.PAYMENT_SWEEP_MS, logger);
    return {
      bindings: [bind(Rpc.payment, handlers)],
      onStop: async () => {
        await sweeper.stop();
        await Promise.all(consumers.map((c) => c.stop()));
        customers.close();
        invoicing.close();
      },
    };
  },
});
