import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import express from "express";
import { AppError } from "@billing/errors";
import type { Logger } from "@billing/logger";
import type { Clients } from "./clients";
import type { GatewayConfig } from "./config";
import { jsonTextDeeperThan, MAX_BODY_DEPTH } from "./http/json-depth";
import { AuthFailures } from "./middleware/auth-failures";
import {
  apiKeyResolver,
  authenticate,
  clientAddressOf,
  customerAuthenticator,
  type ApiKeyResolver,
} from "./middleware/auth";
import { errorHandler, notFound } from "./middleware/errors";
import { createMetrics, type Metrics } from "./middleware/metrics";
import { rateLimit, TokenBuckets } from "./middleware/rate-limit";
import { requestContext } from "./middleware/request-context";
import { docsRouter } from "./openapi/serve";
import { addOnsRouter } from "./routes/add-ons/route";
import { appliedCouponsRouter } from "./routes/applied-coupons/route";
import { billableMetricsRouter } from "./routes/billable-metrics/route";
import { billingEntitiesRouter } from "./routes/billing-entities/route";
import { couponsRouter } from "./routes/coupons/route";
import { customersRouter } from "./routes/customers/route";
import { invoiceDocumentsRouter, signedDocumentsRouter } from "./routes/documents/route";
import { eventsRoute } from "./routes/events/route";
import { entitlementsRouter } from "./routes/entitlements/route";
import { featuresRouter } from "./routes/features/route";
import { healthRouter } from "./routes/health";
import { invoicesRouter } from "./routes/invoices/route";
import { feesRouter } from "./routes/fees/route";
import { creditNotesRouter } from "./routes/credit-notes/route";
import { invoiceAuditRouter } from "./routes/invoice-audit/route";
import { invoiceCustomSectionsRouter } from "./routes/invoice-custom-sections/route";
import { lifetimeUsageRouter } from "./routes/lifetime-usage/route";
import { plansRouter } from "./routes/plans/route";
import { subscriptionsRouter } from "./routes/subscriptions/route";
import { taxesRouter } from "./routes/taxes/route";
import { testClockRouter } from "./routes/test-clock/route";
import { walletsRouter } from "./routes/wallets/route";
import { paymentsRouter } from "./routes/payments/route";
import { paymentRequestsRouter } from "./routes/payment-requests/route";
import { webhooksRouter } from "./routes/webhooks/route";

/** Rejects NUL characters anywhere in a JSON body (they break logs, indexes and downstream stores). */
function noNul(_key: string, value: unknown): unknown {
  if (typeof value === "string" && value.includes("\u0000")) throw new SyntaxError("NUL character in JSON string");
  return value;
}

/**
 * Refuses, before parsing, a body that nests objects and arrays deeper than MAX_BODY_DEPTH
 * (body-parser's `verify`): such a body would overflow the stack of the reviver, of
 * `JSON.stringify` or of a service reading it back. 400, with the limit in the message.
 */
function notTooDeep(_req: unknown, _res: unknown, body: Buffer): void {
  if (jsonTextDeeperThan(body, MAX_BODY_DEPTH))
    throw AppError.badRequest(`JSON nested deeper than ${MAX_BODY_DEPTH} levels`);
}

/** Express settings Lago clients rely on. */
export function applyHttpSettings(app: express.Express): void {
  app.disable("x-powered-by");
  // coupon_code[]=a&coupon_code[]=b (also percent-encoded, as the JS client sends) → ["a", "b"]
  app.set("query parser", "extended");
  app.set("etag", false);
}

/**
 * The gateway's HTTP handler: usage events (the ingestion hot path) are served ahead of express
 * and its per-request middleware; every other request goes through the express app.
 */
export function createGateway(
  config: GatewayConfig,
  clients: Clients,
  logger: Logger,
  metrics: Metrics = createMetrics(),
): RequestListener {
  const resolveApiKey = apiKeyResolver(customerAuthenticator(clients.customer), {
    ttlMs: config.API_KEY_CACHE_TTL_MS,
    missTtlMs: config.API_KEY_MISS_TTL_MS,
    failures: new AuthFailures({ limit: config.AUTH_FAILURE_LIMIT, windowMs: config.AUTH_FAILURE_WINDOW_MS }),
  });
  const addressOf = clientAddressOf(config.TRUST_PROXY);
  const limits = new TokenBuckets({ perSecond: config.RATE_LIMIT_PER_S, burst: config.RATE_LIMIT_BURST });
  const events = eventsRoute({
    usage: clients.usage,
    resolveApiKey,
    addressOf,
    bodyLimit: config.BODY_LIMIT,
    logger,
    metrics,
    maxCalls: config.INGEST_CALLS_IN_FLIGHT,
    limits,
  });
  const app = createApp(config, clients, logger, { metrics, resolveApiKey, addressOf, limits });
  return (req: IncomingMessage, res: ServerResponse) => {
    if (!events(req, res)) app(req, res);
  };
}

/** Every route but the usage events', with the gateway's shared metrics, API-key cache and rate limits. */
function createApp(
  config: GatewayConfig,
  clients: Clients,
  logger: Logger,
  shared: {
    metrics: Metrics;
    resolveApiKey: ApiKeyResolver;
    addressOf: (req: IncomingMessage) => string;
    limits: TokenBuckets;
  },
) {
  const app = express();
  applyHttpSettings(app);
  const { metrics, resolveApiKey, addressOf, limits } = shared;

  app.use(requestContext(logger));
  app.use(metrics.middleware);
  app.use(healthRouter(clients.addresses));
  // no /metrics here: it is served on METRICS_HOST:METRICS_PORT only (main.ts), so the public port answers it 404
  // the OpenAPI document and its viewer (/api/v1/openapi.json, /docs/): no API key, so ahead of /api/v1's authentication
  app.use(docsRouter());

  // documents' signed links (file_url): no API key, the link's signature instead; so ahead of /api/v1's authentication
  app.use("/api/v1", signedDocumentsRouter(clients.invoiceDocuments, config.DOCUMENT_LINK_SECRET));

  const api = express.Router();
  api.use(authenticate(resolveApiKey, addressOf));
  api.use(rateLimit(limits));
  api.use(express.json({ limit: config.BODY_LIMIT, type: () => true, reviver: noNul, verify: notTooDeep }));
  api.use(customersRouter(clients.customer));
  api.use(billingEntitiesRouter(clients.customer));
  api.use(taxesRouter(clients.catalog.taxes));
  api.use(billableMetricsRouter(clients.catalog.billableMetrics));
  api.use(addOnsRouter(clients.catalog.addOns));
  api.use(couponsRouter(clients.catalog.coupons));
  api.use(appliedCouponsRouter(clients.catalog.appliedCoupons, clients.customer));
  api.use(plansRouter(clients.catalog.plans));
  api.use(subscriptionsRouter(clients.catalog.subscriptions, clients.customer));
  api.use(invoiceCustomSectionsRouter(clients.catalog.invoiceCustomSections));
  api.use(featuresRouter(clients.catalog.features));
  api.use(entitlementsRouter(clients.catalog.entitlements));
  api.use(testClockRouter(clients.customer));
  api.use(invoicesRouter(clients.invoicing));
  api.use(invoiceDocumentsRouter(clients.invoiceDocuments));
  api.use(feesRouter(clients.fees));
  api.use(lifetimeUsageRouter(clients.lifetimeUsage));
  api.use(creditNotesRouter(clients.creditNotes));
  api.use(invoiceAuditRouter(clients.invoiceAudit));
  api.use(walletsRouter(clients.wallet));
  api.use(paymentsRouter(clients.payment));
  api.use(paymentRequestsRouter(clients.paymentRequests));
  api.use(webhooksRouter(clients.webhooks));
  app.use("/api/v1", api);

  app.use(notFound);
  app.use(errorHandler);
  return app;
}
