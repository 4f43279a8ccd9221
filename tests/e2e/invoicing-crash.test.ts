import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api";
import { startE2E, type E2E } from "../support/platform";

/**
 * A billing run of many subscriptions while the invoicing service is killed with SIGKILL and
 * restarted, three times: afterwards each (customer, boundary) has exactly one invoice, with its
 * number, and the numbers are unique and gap-free.
 */
const SUBSCRIPTIONS = Number(process.env.INVOICING_CRASH_SUBSCRIPTIONS ?? 400);
const KILLS = 3;

let e2e: E2E;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  e2e = await startE2E("invoicing_crash");
  call = api(e2e.platform.baseUrl, e2e.sandbox("Crash billing", "2024-01-01T00:00:00Z").api_key);
  await call("POST", "/plans", { plan: { name: "Flat", code: "flat", interval: "monthly", amount_cents: 1_234, amount_currency: "EUR", pay_in_advance: false } });
  for (let i = 0; i < SUBSCRIPTIONS; i += 20) {
    await Promise.all(Array.from({ length: Math.min(20, SUBSCRIPTIONS - i) }, (_, k) =>
      call("POST", "/subscriptions", { subscription: { external_customer_id: `c${i + k}`, plan_code: "flat", external_id: `s${i + k}`, billing_time: "calendar" } })
        .then((r) => expect(r.status).toBe(200))));
  }
}, 300_000);

afterAll(async () => {
  await e2e?.stop();
});

describe("a billing run survives kill -9 of the invoicing service", () => {
  it("bills every subscription once, numbers unique and gap-free", async () => {
    const started = await call("POST", "/test_clock/advance", { test_clock: { frozen_time: "2024-02-01T00:00:00Z" } });
    expect(started.status).toBe(200);
    // kill at fixed points of the run (whatever its speed): 20 %, 45 % and 70 % of the invoices stored
    const billedAtKills: number[] = [];
    for (const share of [0.2, 0.45, 0.7]) {
      for (;;) {
        const count = (await call("GET", "/invoices?per_page=1")).body.meta?.total_count ?? 0;
        if (count >= share * SUBSCRIPTIONS) {
          billedAtKills.push(count);
          break;
        }
        await new Promise((r) => setTimeout(r, 25));
      }
      await e2e.platform.kill("invoicing", "SIGKILL");
      await e2e.platform.start("invoicing");
    }
    expect(billedAtKills).toHaveLength(KILLS);
    const deadline = Date.now() + 180_000;
    while ((await call("GET", "/test_clock")).body.test_clock.status !== "ready") {
      if (Date.now() > deadline) throw new Error("the clock did not finish advancing");
      await new Promise((r) => setTimeout(r, 200));
    }
    const invoices: Array<Record<string, any>> = [];
    for (let page = 1; ; page++) {
      const res = await call("GET", `/invoices?per_page=1000&page=${page}`);
      invoices.push(...res.body.invoices);
      if (!res.body.meta.next_page) break;
    }
    expect(invoices).toHaveLength(SUBSCRIPTIONS);
    const customers = new Set(invoices.map((i) => i.customer.external_id));
    expect(customers.size).toBe(SUBSCRIPTIONS);
    expect(invoices.every((i) => i.status === "finalized" && i.total_amount_cents === 1_234)).toBe(true);
    // per_customer numbering: each customer's first invoice, 001, once
    const numbers = invoices.map((i) => i.number as string);
    const seen = new Map<string, string[]>();
    for (const i of invoices) seen.set(i.number, [...(seen.get(i.number) ?? []), i.customer.external_id]);
    expect([...seen].filter(([, holders]) => holders.length > 1)).toEqual([]);
    expect(numbers.every((n) => n.endsWith("-001"))).toBe(true);
    console.log(`invoicing crash test: ${SUBSCRIPTIONS} subscriptions, invoices stored at each kill: ${billedAtKills.join(", ")}`);
  }, 300_000);
});
