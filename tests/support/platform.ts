import { BACKEND_SERVICES, createOrganization, dropDatabases, infraUrls, launchPlatform, startOwnNats, uniqueName, type Platform } from "@billing/testkit";

/** One end-to-end test file's own platform: its databases, its processes, its organizations. */
export interface E2E {
  platform: Platform;
  mongoUrl: string;
  natsUrl: string;
  organization(name: string): { organization_id: string; api_key: string };
  /** A sandbox organization whose time stands still at `frozenTime` until its test clock advances. */
  sandbox(name: string, frozenTime: string): { organization_id: string; api_key: string };
  stop(): Promise<void>;
}

/**
 * `env` is added to every service's environment (e.g. a faster subscription scheduler). Each
 * platform has a NATS server of its own (when the installed binary is there), so no platform's
 * consumers read another's events.
 */
export async function startE2E(label: string, env?: Record<string, string>): Promise<E2E> {
  const { mongoUrl } = infraUrls();
  const ownNats = await startOwnNats();
  const natsUrl = ownNats?.url ?? infraUrls().natsUrl;
  const prefix = uniqueName(`e2e_${label}`);
  let platform: Platform;
  try {
    // the tests' webhook receivers listen on 127.0.0.1, which production refuses; the gateway's
    // per-organization rate limit is off (tests send fast; rate-limits.test.ts sets its own)
    platform = await launchPlatform({ mongoUrl, natsUrl, dbPrefix: prefix, randomPorts: true, env: { WEBHOOK_ALLOW_PRIVATE: "1", RATE_LIMIT_PER_S: "0", ...env } });
  } catch (err) {
    await ownNats?.stop();
    throw err;
  }
  return {
    platform,
    mongoUrl,
    natsUrl,
    organization: (name) => createOrganization({ name, mongoUrl, dbName: `${prefix}_customer` }),
    sandbox: (name, frozenTime) => createOrganization({ name, mongoUrl, dbName: `${prefix}_customer`, frozenTime }),
    stop: async () => {
      await platform.stop();
      await ownNats?.stop();
      await dropDatabases(mongoUrl, BACKEND_SERVICES.map((s) => `${prefix}_${s}`));
    },
  };
}
