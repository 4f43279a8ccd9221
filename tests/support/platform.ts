import { inject } from "vitest";
import type { Platform } from "@billing/testkit";
import { OrganizationMaker, type OrganizationKey } from "./organizations";
import { fitsSharedPlatform, type SharedPlatform } from "./shared-platform";
import { launchTestPlatform } from "./test-platform";

/** An end-to-end test file's platform (shared or its own): its addresses, its organizations. */
export interface E2E {
  platform: Platform;
  /** the `e2e` project's shared platform (started and warmed up before the first file), not a file's own */
  shared: boolean;
  mongoUrl: string;
  natsUrl: string;
  organization(name: string): Promise<OrganizationKey>;
  /** A sandbox organization whose time stands still at `frozenTime` until its test clock advances. */
  sandbox(name: string, frozenTime: string): Promise<OrganizationKey>;
  stop(): Promise<void>;
}

/**
 * `env` is added to every service's environment (e.g. a faster subscription scheduler). Each
 * platform has a NATS server of its own (when the installed binary is there), so no platform's
 * consumers read another's events.
 */
export async function startE2E(label: string, env?: Record<string, string>): Promise<E2E> {
  const shared = inject("sharedPlatform");
  if (shared && fitsSharedPlatform(env)) return onSharedPlatform(shared);
  return startOwnE2E(label, env);
}

/**
 * A platform of the file's own (the `e2e-own` project, or settings the shared platform does not
 * have): crash tests kill and restart its services.
 */
export async function startOwnE2E(label: string, env?: Record<string, string>): Promise<E2E> {
  const launched = await launchTestPlatform(`e2e_${label}`, env);
  const organizations = new OrganizationMaker(launched.mongoUrl, `${launched.dbPrefix}_customer`);
  return {
    platform: launched.platform,
    shared: false,
    mongoUrl: launched.mongoUrl,
    natsUrl: launched.natsUrl,
    organization: (name) => organizations.create(name),
    sandbox: (name, frozenTime) => organizations.create(name, frozenTime),
    stop: async () => {
      await organizations.close();
      await launched.stop();
    },
  };
}

/** The `e2e` project's shared platform, as a file sees it: new organizations in its databases; stopping it is the project's business. */
function onSharedPlatform(shared: SharedPlatform): E2E {
  const refuse = (what: string) => async () => {
    throw new Error(
      `${what}: the shared platform's services are not a file's to ${what}; list the file in vitest.config.mts's OWN_PLATFORM_FILES`,
    );
  };
  const platform: Platform = {
    baseUrl: shared.baseUrl,
    gatewayPort: shared.gatewayPort,
    env: shared.env,
    processes: new Map(),
    start: refuse("start"),
    kill: refuse("kill"),
    stop: async () => undefined,
  };
  const organizations = new OrganizationMaker(shared.mongoUrl, `${shared.dbPrefix}_customer`);
  return {
    platform,
    shared: true,
    mongoUrl: shared.mongoUrl,
    natsUrl: shared.natsUrl,
    organization: (name) => organizations.create(name),
    sandbox: (name, frozenTime) => organizations.create(name, frozenTime),
    stop: () => organizations.close(),
  };
}
