import {
  BACKEND_SERVICES,
  dropDatabases,
  infraUrls,
  launchPlatform,
  startOwnNats,
  uniqueName,
  type Platform,
} from "@billing/testkit";
import { SHARED_PLATFORM_ENV } from "./shared-platform";

/** A platform started for tests: its services, its NATS server, its databases' prefix. */
export interface TestPlatform {
  platform: Platform;
  mongoUrl: string;
  natsUrl: string;
  /** its databases are `${dbPrefix}_<service>` */
  dbPrefix: string;
  /** stops the services and the NATS server, and drops the databases */
  stop(): Promise<void>;
}

/**
 * Launches the seven services for tests: a NATS server of their own (when the installed binary is
 * there, so no platform's consumers read another's events), databases under a fresh prefix, the
 * settings every end-to-end file expects (`SHARED_PLATFORM_ENV`) and `env` on top. Used by the
 * shared platform's global setup and by a file's own platform (tests/support/platform.ts).
 */
export async function launchTestPlatform(label: string, env: Record<string, string> = {}): Promise<TestPlatform> {
  const { mongoUrl } = infraUrls();
  const ownNats = await startOwnNats();
  const natsUrl = ownNats?.url ?? infraUrls().natsUrl;
  const dbPrefix = uniqueName(label);
  let platform: Platform;
  try {
    platform = await launchPlatform({
      mongoUrl,
      natsUrl,
      dbPrefix,
      randomPorts: true,
      env: { ...SHARED_PLATFORM_ENV, ...env },
    });
  } catch (err) {
    await ownNats?.stop();
    throw err;
  }
  return {
    platform,
    mongoUrl,
    natsUrl,
    dbPrefix,
    stop: async () => {
      await platform.stop();
      await ownNats?.stop();
      await dropDatabases(
        mongoUrl,
        BACKEND_SERVICES.map((s) => `${dbPrefix}_${s}`),
      );
    },
  };
}
