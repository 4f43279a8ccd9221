import type { Connection } from "mongoose";
import { connectBus, type Bus } from "@billing/bus";
import { Rpc, type UsageRpc } from "@billing/contracts";
import {
  replyCodec,
  type HandlerReplyOf,
  type HandlerRequestOf,
  type MethodName,
  type ResponseOf,
  type ServiceRef,
} from "@billing/grpc";
import { parseConfig } from "@billing/config";
import { systemClock, type Clock } from "@billing/clock";
import { createLogger, silentLogger } from "@billing/logger";
import { connectMongo } from "@billing/mongo";
import { infraUrls, uniqueName, dropTestDatabase } from "@billing/testkit";
import { usageConfigSchema } from "../src/config";
import type { CatalogCopies, MetricCopy, SubscriptionCopy } from "../src/domain/read-copies";
import { usageCollections, type UsageCollections } from "../src/persistence/collections";
import { wireUsage, type UsageParts } from "../src/wiring";

/** The catalog's read copies as a tiny in-memory fixture: only metrics matter to ingestion and aggregation. */
export class FixtureCopies implements CatalogCopies {
  private readonly metrics = new Map<string, MetricCopy>();

  addMetric(org: string, fields: Partial<MetricCopy> & { code: string }): MetricCopy {
    const metric: MetricCopy = {
      svc_id: `bm_${fields.code}`,
      organization_id: org,
      name: fields.code,
      description: null,
      aggregation_type: "count_agg",
      field_name: null,
      recurring: false,
      rounding_function: null,
      rounding_precision: null,
      weighted_interval: null,
      expression: null,
      filters: [],
      created_at: "2026-01-01T00:00:00.000Z",
      updated_at: "2026-01-01T00:00:00.000Z",
      deleted_at: null,
      ...fields,
    };
    this.metrics.set(`${org}|${fields.code}`, metric);
    return metric;
  }

  metricByCode(org: string, code: string): MetricCopy | null {
    return this.metrics.get(`${org}|${code}`) ?? null;
  }

  activeSubscription(): SubscriptionCopy | null {
    return null;
  }

  /** None; a test that needs some replaces this method. */
  subscriptions(_organizationId: string, _externalId: string): SubscriptionCopy[] {
    return [];
  }
}

/** An event as the tests write it: its timestamp in ms, its properties as JSON text. */
export interface EventIn {
  transaction_id: string;
  external_subscription_id: string;
  code: string;
  timestamp_ms?: number;
  properties_json?: string;
  precise_total_amount_cents?: string;
}

/** Unix ms → the API's Unix seconds, milliseconds kept exactly (anything else is sent as it comes). */
const seconds = (ms: number) =>
  Number.isSafeInteger(ms) && ms >= 0
    ? `${Math.floor(ms / 1000)}.${String(ms % 1000).padStart(3, "0")}`
    : String(ms / 1000);

/** The API's event object (POST /events/batch), as the gateway passes it through. */
const apiEvent = (e: EventIn) => ({
  transaction_id: e.transaction_id,
  external_subscription_id: e.external_subscription_id,
  code: e.code,
  timestamp: e.timestamp_ms === undefined ? undefined : seconds(e.timestamp_ms),
  properties: e.properties_json === undefined ? undefined : JSON.parse(e.properties_json),
  precise_total_amount_cents: e.precise_total_amount_cents,
});

/** An ingest request the service refused: its HTTP status and Lago's error_details. */
export class IngestRefused extends Error {
  constructor(
    readonly status: number,
    readonly body: { error_details?: Record<string, unknown> },
  ) {
    super(`ingest refused: ${status} ${JSON.stringify(body)}`);
  }

  get details(): Record<string, unknown> | undefined {
    return this.body.error_details;
  }
}

/** The usage service's parts in this process, on a database and an ingest subject of their own. */
type AggregateRequest = HandlerRequestOf<UsageRpc, "Aggregate">;
export type AggregateAsk = Pick<
  AggregateRequest,
  "organization_id" | "external_subscription_id" | "code" | "from" | "to"
> &
  Partial<AggregateRequest>;

/** A handler's reply as a client of the method receives it: through the method's serializers (defaults applied). */
export async function received<D, M extends MethodName<D>>(
  ref: ServiceRef<D>,
  method: M,
  reply: Promise<HandlerReplyOf<D, M>>,
): Promise<ResponseOf<D, M>> {
  const codec = replyCodec(ref, method);
  return codec.decode(codec.encode(await reply));
}

export interface UsageHarness {
  connection: Connection;
  collections: UsageCollections;
  bus: Bus;
  copies: FixtureCopies;
  prefix: string;
  parts: UsageParts;
  /** One POST /events/batch through IngestHttp, as the gateway passes it: the stored events, or IngestRefused. */
  ingest(org: string, events: EventIn[]): Promise<{ events: Array<Record<string, unknown>> }>;
  /** The Aggregate handler's answer to a request that names the metric and period (no groups unless asked). */
  aggregate(request: AggregateAsk): Promise<HandlerReplyOf<UsageRpc, "Aggregate">>;
  /** Stops ingestion and storage, then starts them again on the same data (what a restart does). */
  restart(env?: Record<string, string>): Promise<void>;
  close(): Promise<void>;
}

export async function startUsageHarness(
  label: string,
  env: Record<string, string> = {},
  clock: Clock = systemClock,
): Promise<UsageHarness> {
  const { mongoUrl, natsUrl } = infraUrls();
  const connection = await connectMongo({ url: mongoUrl, dbName: uniqueName(label) });
  const bus = await connectBus({ url: natsUrl, name: `${label}-test` });
  const copies = new FixtureCopies();
  const prefix = uniqueName(label);
  const start = (extra: Record<string, string>) =>
    wireUsage({
      config: {
        ...parseConfig(usageConfigSchema, { DURABLE_PREFIX: prefix, ...env, ...extra }),
        JETSTREAM_REPLICAS: 1,
      },
      connection,
      bus,
      clock,
      copies,
      logger: process.env.USAGE_TEST_LOG
        ? createLogger({ service: "usage-test", level: process.env.USAGE_TEST_LOG })
        : silentLogger,
    });
  const harness: UsageHarness = {
    connection,
    bus,
    copies,
    prefix,
    collections: usageCollections(connection),
    parts: await start({}),
    async ingest(org, events) {
      const body = Buffer.from(JSON.stringify({ events: events.map(apiEvent) }));
      const { answers } = await received(
        Rpc.usage,
        "IngestHttp",
        harness.parts.handlers.IngestHttp({ requests: [{ organization_id: org, batch: true, body }] }, {} as never),
      );
      const answer = JSON.parse(answers[0]!.body.toString());
      if (answers[0]!.status !== 200) throw new IngestRefused(answers[0]!.status, answer);
      return answer;
    },
    aggregate: (request) =>
      harness.parts.handlers.Aggregate(
        { filters: [], grouped_by: [], with_running_totals: false, ...request },
        {} as never,
      ),
    async restart(extra = {}) {
      await harness.parts.stop();
      harness.parts = await start(extra);
    },
    async close() {
      await harness.parts.stop();
      await dropTestDatabase(connection);
      await connection.close();
      await bus.close();
    },
  };
  return harness;
}
