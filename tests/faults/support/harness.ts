import { mkdirSync } from "node:fs";
import { join } from "node:path";
import {
  BACKEND_SERVICES,
  createOrganization,
  launchPlatform,
  repoRoot,
  uniqueName,
  type Platform,
} from "@billing/testkit";
import { WebhookReceiver } from "../../support/webhook-receiver";
import { ApiClient } from "./client";
import { FaultInjector } from "./faults";
import { ConsumerMetrics } from "./metrics";
import { startOwnMongo, startOwnNatsServer, type RestartableServer } from "./servers";

/**
 * One fault-injection run: its own MongoDB test server and NATS server (restarted by the faults;
 * other test files share the default ones), the platform's seven processes on free ports, one
 * sandbox organization frozen at `frozenTime` and its API client, a webhook receiver on
 * 127.0.0.1, the consumers' metrics and the fault injector. Every log (services, servers) goes to
 * `logDir`, which is kept.
 */
export interface FaultRun {
  label: string;
  logDir: string;
  dbPrefix: string;
  mongo: RestartableServer;
  nats: RestartableServer;
  platform: Platform;
  organizationId: string;
  api: ApiClient;
  receiver: WebhookReceiver;
  metrics: ConsumerMetrics;
  faults: FaultInjector;
  stop(): Promise<void>;
}

/** Settings that make the platform's own retries fit a test's minutes: webhooks retried after 50 ms … minutes instead of 5 s … 10 h. */
export const FAULT_RUN_ENV: Record<string, string> = {
  WEBHOOK_ALLOW_PRIVATE: "1",
  RATE_LIMIT_PER_S: "0",
  WEBHOOK_RETRY_SCALE: "0.01",
  WEBHOOK_LEASE_MS: "3000",
  WEBHOOK_SWEEP_MS: "500",
  PAYMENT_REFUND_RECHECK_MS: "1000",
};

export async function startFaultRun(
  label: string,
  options: { frozenTime: string; env?: Record<string, string>; print?: (line: string) => void },
): Promise<FaultRun> {
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const logDir = join(repoRoot(), ".infra", "logs", `faults-${label}-${stamp}`);
  mkdirSync(logDir, { recursive: true });
  const cleanup: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const step of cleanup.reverse())
      await step().catch((err) => console.warn(`fault run cleanup: ${String(err)}`));
  };
  try {
    const [mongo, nats] = await Promise.all([startOwnMongo({ logDir }), startOwnNatsServer({ logDir })]);
    cleanup.push(
      () => mongo.stop(),
      () => nats.stop(),
    );
    const dbPrefix = uniqueName(`faults_${label}`);
    const platform = await launchPlatform({
      mongoUrl: mongo.url,
      natsUrl: nats.url,
      dbPrefix,
      randomPorts: true,
      logDir,
      env: { ...FAULT_RUN_ENV, ...options.env },
    });
    const metrics = new ConsumerMetrics(platform);
    const faults = new FaultInjector(platform, { mongo, nats }, metrics, options.print);
    // resumed before being stopped: a stopped process does not handle SIGTERM
    cleanup.push(async () => {
      faults.release();
      metrics.stop();
      await platform.stop();
    });
    metrics.start();
    const org = createOrganization({
      name: `Faults ${label}`,
      mongoUrl: mongo.url,
      dbName: `${dbPrefix}_customer`,
      frozenTime: options.frozenTime,
    });
    const api = new ApiClient(platform.baseUrl, org.api_key);
    const receiver = new WebhookReceiver();
    await receiver.start();
    cleanup.push(() => receiver.stop());
    receiver.keys.hmacKey = (await api.get("/webhooks/hmac_key")).webhook.hmac_key as string;
    return {
      label,
      logDir,
      dbPrefix,
      mongo,
      nats,
      platform,
      organizationId: org.organization_id,
      api,
      receiver,
      metrics,
      faults,
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw new Error(`the fault run did not start (logs in ${logDir}): ${(err as Error).message}`);
  }
}

/** The databases of a run (`<prefix>_<service>`). */
export const databasesOf = (run: Pick<FaultRun, "dbPrefix">): Array<{ service: string; db: string }> =>
  BACKEND_SERVICES.map((service) => ({ service, db: `${run.dbPrefix}_${service}` }));
