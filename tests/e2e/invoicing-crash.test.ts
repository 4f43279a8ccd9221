import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Rpc, type ScheduledWorkRpc } from "@billing/contracts";
import { RpcClient } from "@billing/grpc";
import { freePort, repoRoot } from "@billing/testkit";
import { api } from "../support/api";
import { inBatches, crashLoad, SETUP_CONCURRENCY } from "../support/crash";
import { ok, type Json } from "../support/scenario";
import { startE2E, type E2E } from "../support/platform";

/**
 * Billing runs of many subscriptions while invoicing processes die. February: the invoicing
 * service is killed with SIGKILL and restarted three times during the run. March: a second
 * invoicing process races the first (it is asked to run the same due work over and over) and the
 * first is killed once. Afterwards each (customer, boundary) has exactly one invoice, each coupon
 * was consumed once per invoice, and the billing entity's numbers are unique and gap-free.
 */
const SUBSCRIPTIONS = crashLoad("INVOICING_CRASH_SUBSCRIPTIONS", 200, 2000);
const FEE = 1_234;
/** even customers: 100 off each of three invoices; odd customers: 2,000 off once, spread over invoices */
const RECURRING_OFF = 100;
const ONCE_OFF = 2_000;

let e2e: E2E;
let call: ReturnType<typeof api>;
let organizationId: string;
let second: ChildProcess | undefined;

beforeAll(async () => {
  e2e = await startE2E("invoicing_crash");
  const org = await e2e.sandbox("Crash billing", "2024-01-01T00:00:00Z");
  organizationId = org.organization_id;
  call = api(e2e.platform.baseUrl, org.api_key);
  await ok(
    call("PUT", "/billing_entities/default", {
      billing_entity: { document_numbering: "per_billing_entity", document_number_prefix: "CRS" },
    }),
  );
  await ok(
    call("POST", "/plans", {
      plan: {
        name: "Flat",
        code: "flat",
        interval: "monthly",
        amount_cents: FEE,
        amount_currency: "EUR",
        pay_in_advance: false,
      },
    }),
  );
  const coupon = { coupon_type: "fixed_amount", amount_currency: "EUR", expiration: "no_expiration", reusable: true };
  await ok(
    call("POST", "/coupons", {
      coupon: {
        ...coupon,
        name: "Monthly",
        code: "monthly",
        amount_cents: RECURRING_OFF,
        frequency: "recurring",
        frequency_duration: 3,
      },
    }),
  );
  await ok(
    call("POST", "/coupons", {
      coupon: { ...coupon, name: "Welcome", code: "welcome", amount_cents: ONCE_OFF, frequency: "once" },
    }),
  );
  await inBatches(SUBSCRIPTIONS, SETUP_CONCURRENCY, async (i) => {
    await ok(
      call("POST", "/subscriptions", {
        subscription: {
          external_customer_id: `c${i}`,
          plan_code: "flat",
          external_id: `s${i}`,
          billing_time: "calendar",
        },
      }),
    );
    await ok(
      call("POST", "/applied_coupons", {
        applied_coupon: { external_customer_id: `c${i}`, coupon_code: i % 2 === 0 ? "monthly" : "welcome" },
      }),
    );
  });
}, 420_000);

afterAll(async () => {
  second?.kill("SIGKILL");
  await e2e?.stop();
});

async function untilReady(): Promise<void> {
  const deadline = Date.now() + 240_000;
  while ((await call("GET", "/test_clock")).body.test_clock.status !== "ready") {
    if (Date.now() > deadline) throw new Error("the clock did not finish advancing");
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Waits until `share` of one boundary's invoices are stored (beyond `before` already there); returns the count. */
async function untilStored(share: number, before: number): Promise<number> {
  for (;;) {
    const count = (await call("GET", "/invoices?per_page=1")).body.meta?.total_count ?? 0;
    if (count - before >= share * SUBSCRIPTIONS) return count - before;
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function allInvoices(): Promise<Json[]> {
  const invoices: Json[] = [];
  for (let page = 1; ; page++) {
    const res = await ok(call("GET", `/invoices?per_page=1000&page=${page}`));
    invoices.push(...res.invoices);
    if (!res.meta.next_page) return invoices;
  }
}

/** One finalized invoice per customer at the boundary, with the coupon each customer's kind takes. */
function expectOnePerCustomer(invoices: Json[], month: string, couponsOf: (customer: number) => number): void {
  const ofMonth = invoices.filter((i) => i.issuing_date === `${month}-01`);
  expect(ofMonth).toHaveLength(SUBSCRIPTIONS);
  expect(new Set(ofMonth.map((i) => i.customer.external_id)).size).toBe(SUBSCRIPTIONS);
  const wrong = ofMonth.filter((i) => {
    const coupons = couponsOf(Number(i.customer.external_id.slice(1)));
    return (
      i.status !== "finalized" ||
      i.fees_amount_cents !== FEE ||
      i.coupons_amount_cents !== coupons ||
      i.total_amount_cents !== FEE - coupons
    );
  });
  expect(wrong.map((i) => [i.customer.external_id, i.status, i.coupons_amount_cents, i.total_amount_cents])).toEqual(
    [],
  );
}

/** The billing entity's sequence (the number's last part) runs 1…n without a gap or a repeat, month after month. */
function expectGapFree(invoices: Json[]): void {
  const sequences = invoices.map((i) => Number(i.number.split("-").at(-1))).sort((a, b) => a - b);
  expect(sequences).toEqual(sequences.map((_, k) => k + 1));
  expect(new Set(invoices.map((i) => i.number)).size).toBe(invoices.length);
}

describe("billing runs survive kill -9 and a second invoicing process", () => {
  it("February, invoicing killed three times: every subscription billed once, coupons once, numbers gap-free", async () => {
    await ok(call("POST", "/test_clock/advance", { test_clock: { frozen_time: "2024-02-01T00:00:00Z" } }));
    // kill at fixed points of the run (whatever its speed): 20 %, 45 % and 70 % of the invoices stored
    const storedAtKills: number[] = [];
    for (const share of [0.2, 0.45, 0.7]) {
      storedAtKills.push(await untilStored(share, 0));
      await e2e.platform.kill("invoicing", "SIGKILL");
      await e2e.platform.start("invoicing");
    }
    await untilReady();
    const invoices = await allInvoices();
    expect(invoices).toHaveLength(SUBSCRIPTIONS);
    // the welcome coupon covers the whole first invoice, and more
    expectOnePerCustomer(invoices, "2024-02", (c) => (c % 2 === 0 ? RECURRING_OFF : FEE));
    expect(invoices.every((i) => i.number.startsWith("CRS-202402-") && i.sequential_id === 1)).toBe(true);
    expectGapFree(invoices);
    console.log(
      `invoicing crash test: ${SUBSCRIPTIONS} subscriptions, February invoices stored at each kill: ${storedAtKills.join(", ")}`,
    );
  }, 420_000);

  it("March, two invoicing processes and one killed: still once, coupons once, numbers gap-free across both months", async () => {
    const env = {
      ...process.env,
      ...e2e.platform.env.invoicing,
      GRPC_PORT: String(await freePort()),
      METRICS_PORT: "0",
    };
    second = spawn(process.execPath, [join(repoRoot(), "services", "invoicing", "dist", "main.js")], {
      env,
      stdio: "ignore",
    });
    const rival = new RpcClient<ScheduledWorkRpc>(Rpc.scheduledWork, `127.0.0.1:${env.GRPC_PORT}`, 120_000);
    let racing = true;
    let rivalRuns = 0;
    let rivalDone = 0;
    const race = (async () => {
      while (racing) {
        try {
          rivalDone += (await rival.call("RunDue", { organization_id: organizationId, at: "2024-03-01T00:00:00Z" }))
            .done;
          rivalRuns++;
        } catch {
          await new Promise((r) => setTimeout(r, 100)); // still starting
        }
      }
    })();
    try {
      await ok(call("POST", "/test_clock/advance", { test_clock: { frozen_time: "2024-03-01T00:00:00Z" } }));
      const storedAtKill = await untilStored(0.5, SUBSCRIPTIONS);
      await e2e.platform.kill("invoicing", "SIGKILL");
      await e2e.platform.start("invoicing");
      await untilReady();
      console.log(
        `invoicing crash test: March invoices stored at the kill: ${storedAtKill}; the second process ran the due work ${rivalRuns} times, doing ${rivalDone} of it`,
      );
    } finally {
      racing = false;
      await race;
      rival.close();
    }
    expect(rivalDone).toBeGreaterThan(0); // it did race: some of the billing was its
    const invoices = await allInvoices();
    expect(invoices).toHaveLength(2 * SUBSCRIPTIONS);
    // the welcome coupon's remainder on the second invoice; the monthly one again
    expectOnePerCustomer(invoices, "2024-03", (c) => (c % 2 === 0 ? RECURRING_OFF : ONCE_OFF - FEE));
    const march = invoices.filter((i) => i.issuing_date === "2024-03-01");
    expect(march.every((i) => i.number.startsWith("CRS-202403-") && i.sequential_id === 2)).toBe(true);
    expectGapFree(invoices);
    const applied: Json[] = [];
    for (let page = 1; ; page++) {
      const res = await ok(call("GET", `/applied_coupons?per_page=1000&page=${page}`));
      applied.push(...res.applied_coupons);
      if (!res.meta.next_page) break;
    }
    const monthly = applied.filter((a) => a.coupon_code === "monthly");
    expect(monthly).toHaveLength(SUBSCRIPTIONS / 2);
    expect(monthly.filter((a) => a.status !== "active" || a.frequency_duration_remaining !== 1)).toEqual([]);
    // a welcome coupon used up is terminated; where it is still listed, nothing remains of it
    expect(
      applied.filter(
        (a) => a.coupon_code === "welcome" && (a.status !== "terminated" || a.amount_cents_remaining !== 0),
      ),
    ).toEqual([]);
  }, 420_000);
});
