import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BACKEND_SERVICES, dropDatabases, infraUrls, launchPlatform, uniqueName, waitFor, type Platform } from "@billing/testkit";

const prefix = uniqueName("e2e_lifecycle");
let platform: Platform;

beforeAll(async () => {
  const { mongoUrl, natsUrl } = infraUrls();
  platform = await launchPlatform({ mongoUrl, natsUrl, dbPrefix: prefix, randomPorts: true });
});

afterAll(async () => {
  await platform?.stop();
  await dropDatabases(infraUrls().mongoUrl, BACKEND_SERVICES.map((s) => `${prefix}_${s}`));
});

async function health() {
  const res = await fetch(`${platform.baseUrl}/health`);
  // the gateway's /health: each service's state by name
  return { status: res.status, body: (await res.json()) as { services: Record<string, string> } };
}

describe("service lifecycle", () => {
  it.each(BACKEND_SERVICES)("%s stops cleanly on SIGTERM, shows as unavailable, and comes back", async (service) => {
    const child = platform.processes.get(service)!;
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    await platform.kill(service, "SIGTERM");
    expect(await exited).toBe(0);

    const degraded = await health();
    expect(degraded.status).toBe(503);
    expect(degraded.body.services[service]).toBe("unavailable");

    await platform.start(service);
    await waitFor(async () => (await health()).status === 200, { what: `${service} back` });
  });

  it("stops the gateway cleanly on SIGTERM", async () => {
    const child = platform.processes.get("gateway")!;
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    await platform.kill("gateway", "SIGTERM");
    expect(await exited).toBe(0);
  });
});
