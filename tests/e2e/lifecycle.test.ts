import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BACKEND_SERVICES,
  createOrganization,
  dropDatabases,
  infraUrls,
  launchPlatform,
  uniqueName,
  waitFor,
  type Platform,
} from "@billing/testkit";
import { api } from "../support/api";

const prefix = uniqueName("e2e_lifecycle");
let platform: Platform;

beforeAll(async () => {
  const { mongoUrl, natsUrl } = infraUrls();
  platform = await launchPlatform({ mongoUrl, natsUrl, dbPrefix: prefix, randomPorts: true });
});

afterAll(async () => {
  await platform?.stop();
  await dropDatabases(
    infraUrls().mongoUrl,
    BACKEND_SERVICES.map((s) => `${prefix}_${s}`),
  );
});

async function health() {
  const res = await fetch(`${platform.baseUrl}/health`);
  // the gateway's /health: each service's state by name
  return { status: res.status, body: (await res.json()) as { services: Record<string, string> } };
}

describe("a peer away", () => {
  // (moved here from customers.test.ts, whose platform is shared: only a file's own platform may lose a service)
  it("answers a clean 503 when the catalog is down, and recovers when it is back", async () => {
    const org = createOrganization({ name: "Peer away", mongoUrl: infraUrls().mongoUrl, dbName: `${prefix}_customer` });
    const as = api(platform.baseUrl, org.api_key);
    expect((await as("POST", "/taxes", { tax: { name: "French VAT", code: "fr_vat", rate: "20.0" } })).status).toBe(
      200,
    );
    expect((await as("POST", "/customers", { customer: { external_id: "taxed", tax_codes: ["fr_vat"] } })).status).toBe(
      200,
    );
    await platform.kill("catalog");
    try {
      expect(await as("GET", "/customers/taxed")).toEqual({
        status: 503,
        body: { status: 503, error: "Service Unavailable" },
      });
      expect((await as("GET", "/customers")).status).toBe(503);
      expect((await as("GET", "/billing_entities/default")).status).toBe(200); // the customer service itself still answers
    } finally {
      await platform.start("catalog");
    }
    // the customer service's channel reconnects after gRPC's backoff (about a second here)
    await waitFor(async () => (await as("GET", "/customers/taxed")).status === 200, { what: "the catalog back" });
    expect((await as("GET", "/customers/taxed")).body.customer.taxes.map((t: { code: string }) => t.code)).toEqual([
      "fr_vat",
    ]);
  });
});

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
