import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@billing/testkit";
import { api } from "../support/api";
import { crashLoad, SETUP_CONCURRENCY } from "../support/crash";
import { ok } from "../support/scenario";
import { startE2E, type E2E } from "../support/platform";
import { WebhookReceiver } from "../support/webhook-receiver";

/**
 * Webhooks while the payment service dies: 1,000 customers are created while their receiver is
 * down, so 1,000 `customer.created` deliveries are pending and failing; the payment service is
 * killed with SIGKILL and started again, and the receiver comes back. Afterwards every delivery
 * arrived, each unique key was processed once by the receiver, and the log says succeeded.
 * Retries are shortened (×0.0005: 2.5 ms … 18 s) and a dead process's leases pass after 2 s.
 */
const CUSTOMERS = crashLoad("WEBHOOK_CRASH_CUSTOMERS", 150, 1_000);
/** Waits grow with the load: at full size beside the other crash tests, 1,000 deliveries took over a minute to be stored. */
const waitMs = (floorMs: number, perCustomerMs: number) => Math.max(floorMs, CUSTOMERS * perCustomerMs);

let e2e: E2E;
let call: ReturnType<typeof api>;
const receiver = new WebhookReceiver();

const total = async (query: string) =>
  (await ok(call("GET", `/webhooks?per_page=1&${query}`))).meta.total_count as number;

beforeAll(async () => {
  e2e = await startE2E("webhooks_crash", {
    WEBHOOK_RETRY_SCALE: "0.0005",
    WEBHOOK_LEASE_MS: "2000",
    WEBHOOK_SWEEP_MS: "200",
  });
  call = api(e2e.platform.baseUrl, (await e2e.organization("Webhooks crash")).api_key);
  await receiver.start();
  receiver.keys.hmacKey = (await ok(call("GET", "/webhooks/hmac_key"))).webhook.hmac_key as string;
  await ok(
    call("POST", "/webhook_endpoints", {
      webhook_endpoint: {
        webhook_url: `${receiver.url}/crash`,
        signature_algo: "hmac",
        event_types: ["customer.created"],
      },
    }),
  );
  await receiver.stop();
}, 180_000);

afterAll(async () => {
  await receiver.stop();
  await e2e?.stop();
});

describe("webhooks through a crash of the payment service", () => {
  it("delivers every pending delivery once the receiver is back, each unique key processed once", async () => {
    for (let i = 0; i < CUSTOMERS; i += SETUP_CONCURRENCY) {
      await Promise.all(
        Array.from({ length: Math.min(SETUP_CONCURRENCY, CUSTOMERS - i) }, (_, k) =>
          ok(call("POST", "/customers", { customer: { external_id: `c${i + k}`, currency: "EUR" } })),
        ),
      );
    }
    // all stored, none delivered: the receiver refuses connections
    await waitFor(async () => (await total("status=pending")) === CUSTOMERS, {
      what: `${CUSTOMERS} pending deliveries`,
      timeoutMs: waitMs(60_000, 150),
      intervalMs: 250,
    });
    expect(receiver.processed).toHaveLength(0);

    await e2e.platform.kill("payment", "SIGKILL");
    await e2e.platform.start("payment");
    await receiver.start(receiver.port);

    await waitFor(() => receiver.seen.size === CUSTOMERS, {
      what: `${CUSTOMERS} deliveries processed (${receiver.seen.size} so far)`,
      timeoutMs: waitMs(120_000, 240),
      intervalMs: 250,
    });
    await waitFor(async () => (await total("status=succeeded")) === CUSTOMERS, {
      what: "the log settled",
      timeoutMs: 30_000,
      intervalMs: 250,
    });
    expect(await total("")).toBe(CUSTOMERS);
    expect(await total("status=failed")).toBe(0);
    expect(receiver.refusedSignatures).toBe(0);
    expect(new Set(receiver.processed.map((d) => d.payload.customer.external_id))).toEqual(
      new Set(Array.from({ length: CUSTOMERS }, (_, i) => `c${i}`)),
    );
    // at least once: a delivery whose success a crash kept from the log may come again; the receiver recognizes its key
    console.log(
      `webhooks crash: ${receiver.processed.length} processed, ${receiver.duplicates} duplicate deliveries, ${receiver.attempts} attempts answered`,
    );
  }, 600_000);
});
